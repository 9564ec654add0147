package main

import (
	"fmt"
	"log"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// paramMem is the stack slot of an ABI0 argument, used as a memory operand
// (rowsMirrorK keeps rows, dstStride and srcStride there to save registers).
func paramMem(name string) Mem {
	b, err := Param(name).Resolve()
	if err != nil {
		log.Fatal(err)
	}
	return b.Addr
}

func mirrorDoc(name string, K int) []string {
	return []string{
		name + " pads rows rows by mirroring: row r of dst (at r*dstStride) gets",
		"left bytes of elements of row r of src (at r*srcStride) in reverse order,",
		"ending with the element at leftFrom, the mid bytes of the row, and right",
		"bytes of its elements in reverse order starting from the one at rightFrom.",
		fmt.Sprintf("Elements are %d bytes: left, mid, right, leftFrom and rightFrom are", K),
		fmt.Sprintf("multiples of %d, mid >= %d, and the pieces read, s[leftFrom+%d-left:leftFrom+%d]", K, K, K, K),
		fmt.Sprintf("and s[rightFrom+%d-right:rightFrom+%d], lie in s[0:mid]. No byte of dst", K, K),
		"outside each row's [0, left+mid+right) is written, no byte of src outside",
		"each row's [0, mid) is read:",
		"",
		fmt.Sprintf("\tfor r := 0; r < rows; r++ {\n\t\td := dst[r*dstStride:]\n\t\ts := src[r*srcStride:]\n\t\tcopy(d[left:left+mid], s[:mid])\n"+
			"\t\tfor i := 0; i < left/%d; i++ {\n\t\t\tcopy(d[i*%d:(i+1)*%d], s[leftFrom-i*%d:leftFrom-i*%d+%d])\n\t\t}\n"+
			"\t\tfor i := 0; i < right/%d; i++ {\n\t\t\tcopy(d[left+mid+i*%d:left+mid+(i+1)*%d], s[rightFrom-i*%d:rightFrom-i*%d+%d])\n\t\t}\n\t}",
			K, K, K, K, K, K, K, K, K, K, K, K),
		"",
	}
}

// genRowsMirror emits rowsMirrorK. Each mirrored piece is a reversal of the
// elements of a contiguous src range (s[from+K-n:from+K] reversed into n dst
// bytes), so a row is: the mid copy (size ladder or overlapping vector
// blocks, as in the rows kernels), then each piece reversed as in reverseK
// (in-register reversal of at most two overlapping blocks that stay inside
// the piece for n < 32; a loop of 32-byte blocks plus one overlapping block
// for longer pieces). Every load lies within the piece or s[0:mid], every
// store within the piece's or the mid's dst range.
//
// The AVX-512 variant uses the same body (VEX-encoded YMM/XMM and general
// registers) except that it copies a mid of 128 bytes or more with ZMM
// blocks: for the short pieces of padding, masked stores with a per-piece
// VPERM index set-up would not beat two overlapping in-register reversals.
func genRowsMirror(a isa, K int) {
	name := fmt.Sprintf("rowsMirror%d%s", K, a.name)
	kernel(name, rowsSig+", leftFrom, rightFrom int)", append(mirrorDoc(name, K), a.feature())...)
	var lo, ro reg.Register
	var rev func(Op, reg.Register)
	pieceRows(a, K, "ret", "mirror_rows", func(r pieceRowsArgs) {
		// lo, ro: offsets in the src row of the first byte each piece reads.
		lo = Load(Param("leftFrom"), gp())
		ADDQ(U32(K), lo)
		SUBQ(r.left, lo)
		ro = Load(Param("rightFrom"), gp())
		ADDQ(U32(K), ro)
		SUBQ(r.right, ro)
		rev, _ = reverser(avx2, K)
	}, func(r pieceRowsArgs) {
		// left piece: d[0:left] = reversed s[lo:lo+left]
		pd, ps := gp(), gp()
		MOVQ(r.d, pd)
		LEAQ(ati(r.s, lo, 0), ps)
		mirrorPiece(K, pd, ps, r.left, rev)
		// right piece: d[left+mid:left+mid+right] = reversed s[ro:ro+right]
		qd, qs := gp(), gp()
		LEAQ(ati(r.d, r.left, 0), qd)
		ADDQ(r.mid, qd)
		LEAQ(ati(r.s, ro, 0), qs)
		mirrorPiece(K, qd, qs, r.right, rev)
	})
}

// pieceRowsArgs are the registers of pieceRows' row loop: the row's dst
// and src, and the lengths of its pads and its mid.
type pieceRowsArgs struct{ d, s, left, mid, right reg.Register }

// pieceRows emits the body of a rows kernel whose rows are their mid copy
// and a piece on each side (rowsMirrorK, rowsWrap): it returns at once for
// no rows, runs setup before the loop, and per row copies the mid
// (copyRowRun, runs of multiples of K) and then has pads make the pieces.
// ret and loop name its labels.
func pieceRows(a isa, K int, ret, loop string, setup, pads func(r pieceRowsArgs)) {
	rowsM, dsM, ssM := paramMem("rows"), paramMem("dstStride"), paramMem("srcStride")
	ret = newLabel(ret)
	n := gp()
	MOVQ(rowsM, n)
	TESTQ(n, n)
	JZ(LabelRef(ret))

	var r pieceRowsArgs
	r.d = Load(Param("dst"), gp())
	r.s = Load(Param("src"), gp())
	r.left = Load(Param("left"), gp())
	r.mid = Load(Param("mid"), gp())
	r.right = Load(Param("right"), gp())
	setup(r)

	loop = newLabel(loop)
	Label(loop)
	dm := gp()
	LEAQ(ati(r.d, r.left, 0), dm)
	copyRowRun(a, dm, r.s, r.mid, K)
	pads(r)

	ADDQ(dsM, r.d)
	ADDQ(ssM, r.s)
	DECQ(rowsM)
	JNZ(LabelRef(loop))
	VZEROUPPER()
	Label(ret)
	RET()
}

// copyRowRun emits a copy of n bytes (a multiple of minW) from s to d: ZMM
// blocks from 128 bytes in the AVX-512 version (as the rows kernels' ZMM
// class), else the AVX2 size ladder and overlapping vectors. It keeps s
// and n.
func copyRowRun(a isa, d, s, n reg.Register, minW int) {
	if a.V != 64 {
		copyExactAVX2(d, s, n, minW)
		return
	}
	small, done := newLabel("mid_small"), newLabel("mid_done")
	CMPQ(n, U32(128))
	JB(LabelRef(small))
	copyLong(avx512, d, s, n, false)
	JMP(LabelRef(done))
	Label(small)
	copyExactAVX2(d, s, n, minW)
	Label(done)
}

// mirrorPiece writes to pd[0:n] the K-byte elements of ps[0:n] in reverse
// order (n a multiple of K, possibly 0). pd may be modified.
func mirrorPiece(K int, pd, ps, n reg.Register, rev func(Op, reg.Register)) {
	long, done := newLabel("mp_long"), newLabel("mp_done")
	CMPQ(n, U32(32))
	JAE(LabelRef(long))
	reverseShortAVX2(pd, ps, n, K)
	JMP(LabelRef(done))

	Label(long)
	// c is the src offset of the block reversed into pd (pd advances by 32
	// as c goes down by 32); pd+c stays pd0+n-32, the last dst block.
	c := gp()
	LEAQ(at(n, -32), c)
	y := YMM()
	l := newLabel("mp_loop")
	Label(l)
	rev(ati(ps, c, 0), y)
	VMOVDQU(y, at(pd, 0))
	ADDQ(U8(32), pd)
	SUBQ(U8(32), c)
	JGE(LabelRef(l))
	// tail: pd0[n-32:n] = reversed ps[0:32] (c in [-32, -1], on the K grid
	// because n is a multiple of K and K divides 32).
	y2 := YMM()
	rev(at(ps, 0), y2)
	VMOVDQU(y2, ati(pd, c, 0))
	Label(done)
}

// genRowsWrap emits rowsWrap: rows whose pads are forward runs of the row
// itself (wrap padding): the mid copy, then each pad copied from its src
// range by the same size ladder (overlapping vectors from 32 bytes).
// Without it a wrapped row wider than the table kernels take was three
// copies in Go.
func genRowsWrap(a isa) {
	name := "rowsWrap" + a.name
	kernel(name, rowsSig+", leftFrom, rightFrom int)",
		name+" pads rows by forward runs of their own bytes: row r of dst (at",
		"r*dstStride) gets left bytes of row r of src (at r*srcStride) from",
		"offset leftFrom, the mid bytes of the row, and right bytes from offset",
		"rightFrom; the pieces, s[leftFrom:leftFrom+left] and",
		"s[rightFrom:rightFrom+right], lie in s[0:mid]. No byte of dst outside",
		"each row's [0, left+mid+right) is written, no byte of src outside each",
		"row's [0, mid) is read:",
		"",
		"\tfor r := 0; r < rows; r++ {\n\t\td := dst[r*dstStride:]\n\t\ts := src[r*srcStride:]\n"+
			"\t\tcopy(d[left:left+mid], s[:mid])\n\t\tcopy(d[:left], s[leftFrom:leftFrom+left])\n"+
			"\t\tcopy(d[left+mid:left+mid+right], s[rightFrom:rightFrom+right])\n\t}",
		"",
		a.feature())
	var lo, ro reg.Register
	pieceRows(a, 1, "wrap_ret", "wrap_rows", func(pieceRowsArgs) {
		lo = Load(Param("leftFrom"), gp())
		ro = Load(Param("rightFrom"), gp())
	}, func(r pieceRowsArgs) {
		pd, ps := gp(), gp()
		MOVQ(r.d, pd)
		LEAQ(ati(r.s, lo, 0), ps)
		copyRowRun(a, pd, ps, r.left, 1)
		LEAQ(ati(r.d, r.left, 0), pd)
		ADDQ(r.mid, pd)
		LEAQ(ati(r.s, ro, 0), ps)
		copyRowRun(a, pd, ps, r.right, 1)
	})
}

func genRowsPieces() {
	name := "rowsPiecesAVX2"
	kernel(name, "func(dst, src *byte, rows, dstStride, srcStride int, tab *int32, pieces int)",
		name+" makes rows as copies of pieces of their own input: row r of dst",
		"(at r*dstStride) gets, for each of the pieces entries of tab (at, from,",
		"n: three int32, n >= 0), n bytes at byte at from byte from of row r of",
		"src (at r*srcStride). The pieces of a row do not overlap in dst. No",
		"byte of dst outside the pieces is written, no byte of src outside them",
		"read:",
		"",
		"\tfor r := 0; r < rows; r++ {\n\t\td := dst[r*dstStride:]\n\t\ts := src[r*srcStride:]\n"+
			"\t\tfor i := 0; i < pieces; i++ {\n\t\t\tat, from, n := tab[3*i], tab[3*i+1], tab[3*i+2]\n"+
			"\t\t\tcopy(d[at:at+n], s[from:from+n])\n\t\t}\n\t}",
		"",
		avx2.feature())
	rowsM, dsM, ssM := paramMem("rows"), paramMem("dstStride"), paramMem("srcStride")
	tabM, piecesM := paramMem("tab"), paramMem("pieces")
	ret := newLabel("pieces_ret")
	n := gp()
	MOVQ(rowsM, n)
	TESTQ(n, n)
	JZ(LabelRef(ret))
	MOVQ(piecesM, n)
	TESTQ(n, n)
	JZ(LabelRef(ret))
	d := Load(Param("dst"), gp())
	s := Load(Param("src"), gp())

	rows, pieces := newLabel("pieces_rows"), newLabel("pieces_loop")
	Label(rows)
	p, c := gp(), gp()
	MOVQ(tabM, p)
	MOVQ(piecesM, c)
	Label(pieces)
	pd, ps, k := gp(), gp(), gp()
	MOVLQSX(at(p, 0), pd)
	ADDQ(d, pd)
	MOVLQSX(at(p, 4), ps)
	ADDQ(s, ps)
	MOVLQSX(at(p, 8), k)
	copyExactAVX2(pd, ps, k, 1)
	ADDQ(U8(12), p)
	DECQ(c)
	JNZ(LabelRef(pieces))

	ADDQ(dsM, d)
	ADDQ(ssM, s)
	DECQ(rowsM)
	JNZ(LabelRef(rows))
	VZEROUPPER()
	Label(ret)
	RET()
}
