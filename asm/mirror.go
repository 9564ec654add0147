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
	rowsM, dsM, ssM := paramMem("rows"), paramMem("dstStride"), paramMem("srcStride")
	ret := newLabel("ret")
	n := gp()
	MOVQ(rowsM, n)
	TESTQ(n, n)
	JZ(LabelRef(ret))

	d := Load(Param("dst"), gp())
	s := Load(Param("src"), gp())
	left := Load(Param("left"), gp())
	mid := Load(Param("mid"), gp())
	right := Load(Param("right"), gp())
	// lo, ro: offsets in the src row of the first byte each piece reads.
	lo := Load(Param("leftFrom"), gp())
	ADDQ(U32(K), lo)
	SUBQ(left, lo)
	ro := Load(Param("rightFrom"), gp())
	ADDQ(U32(K), ro)
	SUBQ(right, ro)

	rev, _ := reverser(avx2, K)

	loop := newLabel("mirror_rows")
	Label(loop)
	// mid
	dm := gp()
	LEAQ(ati(d, left, 0), dm)
	if a.V == 64 {
		// ZMM blocks for mid >= 128 (as the rows kernels' ZMM class).
		small, cdone := newLabel("mid_small"), newLabel("mid_done")
		CMPQ(mid, U32(128))
		JB(LabelRef(small))
		copyLong(avx512, dm, s, mid, false)
		JMP(LabelRef(cdone))
		Label(small)
		copyExactAVX2(dm, s, mid, K)
		Label(cdone)
	} else {
		copyExactAVX2(dm, s, mid, K)
	}
	// left piece: d[0:left] = reversed s[lo:lo+left]
	pd, ps := gp(), gp()
	MOVQ(d, pd)
	LEAQ(ati(s, lo, 0), ps)
	mirrorPiece(K, pd, ps, left, rev)
	// right piece: d[left+mid:left+mid+right] = reversed s[ro:ro+right]
	qd, qs := gp(), gp()
	LEAQ(ati(d, left, 0), qd)
	ADDQ(mid, qd)
	LEAQ(ati(s, ro, 0), qs)
	mirrorPiece(K, qd, qs, right, rev)

	ADDQ(dsM, d)
	ADDQ(ssM, s)
	DECQ(rowsM)
	JNZ(LabelRef(loop))
	VZEROUPPER()
	Label(ret)
	RET()
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
	rowsM, dsM, ssM := paramMem("rows"), paramMem("dstStride"), paramMem("srcStride")
	ret := newLabel("wrap_ret")
	n := gp()
	MOVQ(rowsM, n)
	TESTQ(n, n)
	JZ(LabelRef(ret))

	d := Load(Param("dst"), gp())
	s := Load(Param("src"), gp())
	left := Load(Param("left"), gp())
	mid := Load(Param("mid"), gp())
	right := Load(Param("right"), gp())
	lo := Load(Param("leftFrom"), gp())
	ro := Load(Param("rightFrom"), gp())

	copyRun := func(pd, ps, n reg.Register) {
		if a.V == 64 {
			small, done := newLabel("wrap_small"), newLabel("wrap_done")
			CMPQ(n, U32(128))
			JB(LabelRef(small))
			copyLong(avx512, pd, ps, n, false)
			JMP(LabelRef(done))
			Label(small)
			copyExactAVX2(pd, ps, n, 1)
			Label(done)
		} else {
			copyExactAVX2(pd, ps, n, 1)
		}
	}

	loop := newLabel("wrap_rows")
	Label(loop)
	pd, ps := gp(), gp()
	LEAQ(ati(d, left, 0), pd)
	MOVQ(s, ps)
	copyRun(pd, ps, mid)
	MOVQ(d, pd)
	LEAQ(ati(s, lo, 0), ps)
	copyRun(pd, ps, left)
	LEAQ(ati(d, left, 0), pd)
	ADDQ(mid, pd)
	LEAQ(ati(s, ro, 0), ps)
	copyRun(pd, ps, right)

	ADDQ(dsM, d)
	ADDQ(ssM, s)
	DECQ(rowsM)
	JNZ(LabelRef(loop))
	VZEROUPPER()
	Label(ret)
	RET()
}
