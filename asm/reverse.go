package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Constant vectors of the reversal kernels, in one read-only symbol.
var (
	revConsts Mem
	offRev1   int // 16 bytes: PSHUFB mask reversing 16 bytes
	offRev2   int // 16 bytes: PSHUFB mask reversing 8 words
	offPermD8 int // 8 dwords 7..0: VPERMD YMM index
	offPermD  int // 16 dwords 15..0: VPERMD ZMM index
	offPermQ  int // 8 qwords 7..0: VPERMQ ZMM index
	offPermW  int // 32 words 31..0: VPERMW ZMM index
	offLaneQ  int // 8 qwords 6,7,4,5,2,3,0,1: VPERMQ ZMM index reversing 128-bit lanes
	offSpread int // 32 bytes 0x8, 1x8, 2x8, 3x8: VPSHUFB index giving each byte its mask byte
	offBits   int // 8 bytes 1, 2, 4, ..., 128: each byte's bit of its mask byte
	offCarry  int // 16 bytes 0x80x8, 7x8: VPSHUFB index putting byte 7 in bytes 8..15
)

func genConsts() {
	revConsts = GLOBL("revconsts", RODATA|NOPTR)
	off := 0
	byt := func(v int) { DATA(off, U8(uint8(v))); off++ }
	u16 := func(v int) { DATA(off, U16(uint16(v))); off += 2 }
	u32 := func(v int) { DATA(off, U32(uint32(v))); off += 4 }
	u64 := func(v int) { DATA(off, U64(uint64(v))); off += 8 }
	offRev1 = off
	for i := 15; i >= 0; i-- {
		byt(i)
	}
	offRev2 = off
	for i := 7; i >= 0; i-- {
		byt(2 * i)
		byt(2*i + 1)
	}
	offPermD8 = off
	for i := 7; i >= 0; i-- {
		u32(i)
	}
	offPermD = off
	for i := 15; i >= 0; i-- {
		u32(i)
	}
	offPermQ = off
	for i := 7; i >= 0; i-- {
		u64(i)
	}
	offPermW = off
	for i := 31; i >= 0; i-- {
		u16(i)
	}
	offLaneQ = off
	for _, i := range []int{6, 7, 4, 5, 2, 3, 0, 1} {
		u64(i)
	}
	offSpread = off
	for i := range 32 {
		byt(i / 8)
	}
	offBits = off
	for i := range 8 {
		byt(1 << i)
	}
	offCarry = off
	for i := range 16 {
		if i < 8 {
			byt(0x80) // zero
		} else {
			byt(7)
		}
	}
}

// reverser returns a function that loads the vector at src (a memory operand
// or a vector register) and writes it to dst with its K-byte elements in
// reverse order; the constants it needs are loaded into registers first.
// For AVX-512 it also returns its permutation index (K >= 2: the reversed
// element iota; K == 1: the 128-bit lane reversal), which the short path
// adjusts to the length.
func reverser(a isa, K int) (rev func(src Op, dst reg.Register), index reg.VecVirtual) {
	if a.V == 32 && (K == 8 || K == 16) {
		imm := U8(0x1B) // reverse the 4 qwords
		if K == 16 {
			imm = U8(0x4E) // swap the 128-bit lanes
		}
		return func(src Op, dst reg.Register) { VPERMQ(imm, src, dst) }, nil
	}
	b := gp()
	LEAQ(revConsts, b)
	if a.V == 32 {
		switch K {
		case 1, 2:
			m := YMM()
			off := offRev1
			if K == 2 {
				off = offRev2
			}
			VBROADCASTI128(at(b, off), m)
			return func(src Op, dst reg.Register) {
				VPERMQ(U8(0x4E), src, dst) // swap the 128-bit lanes
				VPSHUFB(m, dst, dst)       // reverse within each lane
			}, nil
		case 4:
			idx := YMM()
			VMOVDQU(at(b, offPermD8), idx)
			return func(src Op, dst reg.Register) { VPERMD(src, idx, dst) }, nil
		}
	}
	idx := ZMM()
	switch K {
	case 1:
		VMOVDQU64(at(b, offLaneQ), idx)
		m := ZMM()
		VBROADCASTI32X4(at(b, offRev1), m)
		return func(src Op, dst reg.Register) {
			VPERMQ(src, idx, dst) // reverse the order of the 128-bit lanes
			VPSHUFB(m, dst, dst)  // reverse within each lane
		}, idx
	case 2:
		VMOVDQU64(at(b, offPermW), idx)
		return func(src Op, dst reg.Register) { VPERMW(src, idx, dst) }, idx
	case 4:
		VMOVDQU64(at(b, offPermD), idx)
		return func(src Op, dst reg.Register) { VPERMD(src, idx, dst) }, idx
	case 8:
		VMOVDQU64(at(b, offPermQ), idx)
		return func(src Op, dst reg.Register) { VPERMQ(src, idx, dst) }, idx
	case 16:
		VMOVDQU64(at(b, offLaneQ), idx)
		return func(src Op, dst reg.Register) { VPERMQ(src, idx, dst) }, idx
	}
	panic("bad K")
}

// reverseLong writes the reversal of the n >= a.V bytes at s to d: dst block
// at offset o (a multiple of K) of length V is the reversed src block
// [n-o-V, n-o). The tail is an overlapping block, which is correct because
// every block boundary stays on the element grid. When d is a multiple of K
// (always for K == 1), the main loop starts at the first a.V-aligned dst
// address after an unaligned head block, which is then also on the grid.
func reverseLong(a isa, K int, d, s, n reg.Register, rev func(Op, reg.Register)) {
	V := a.V
	le2, le4, tail, done := newLabel("rev_le2"), newLabel("rev_le4"), newLabel("rev_tail"), newLabel("rev_done")
	CMPQ(n, U32(2*V))
	JBE(LabelRef(le2))
	CMPQ(n, U32(4*V))
	JBE(LabelRef(le4))

	v := [4]reg.VecVirtual{a.vec(), a.vec(), a.vec(), a.vec()}
	last, dp, sp := gp(), gp(), gp()
	LEAQ(ati(d, n, -4*V), last)
	LEAQ(ati(s, n, -4*V), sp)
	loop := func() {
		l := newLabel("rev_loop")
		Label(l)
		for j := 0; j < 4; j++ {
			rev(at(sp, (3-j)*V), v[j])
		}
		for j := 0; j < 4; j++ {
			a.store(v[j], at(dp, j*V))
		}
		ADDQ(U32(4*V), dp)
		SUBQ(U32(4*V), sp)
		CMPQ(dp, last)
		JB(LabelRef(l))
	}
	plain := newLabel("rev_plain")
	if K > 1 {
		TESTQ(U32(K-1), d)
		JNZ(LabelRef(plain))
	}
	// aligned: head block, then the loop from the aligned address.
	rev(ati(s, n, -V), v[0])
	a.store(v[0], at(d, 0))
	o := gp()
	LEAQ(at(d, V), dp)
	ANDQ(I32(-V), dp)
	MOVQ(dp, o)
	SUBQ(d, o)
	SUBQ(o, sp)
	CMPQ(dp, last)
	JAE(LabelRef(tail))
	loop()
	JMP(LabelRef(tail))

	Label(plain)
	MOVQ(d, dp)
	loop()

	Label(tail)
	for j := 0; j < 4; j++ {
		rev(at(s, (3-j)*V), v[j])
	}
	for j := 0; j < 4; j++ {
		a.store(v[j], at(last, j*V))
	}
	JMP(LabelRef(done))

	Label(le4)
	w := [4]reg.VecVirtual{a.vec(), a.vec(), a.vec(), a.vec()}
	rev(ati(s, n, -V), w[0])
	rev(ati(s, n, -2*V), w[1])
	rev(at(s, V), w[2])
	rev(at(s, 0), w[3])
	a.store(w[0], at(d, 0))
	a.store(w[1], at(d, V))
	a.store(w[2], ati(d, n, -2*V))
	a.store(w[3], ati(d, n, -V))
	JMP(LabelRef(done))

	Label(le2)
	u0, u1 := a.vec(), a.vec()
	rev(ati(s, n, -V), u0)
	rev(at(s, 0), u1)
	a.store(u0, at(d, 0))
	a.store(u1, ati(d, n, -V))
	Label(done)
}

func reverseDoc(name string, K int) []string {
	if K == 1 {
		return []string{
			name + " writes to dst the n bytes of src in reverse order:",
			"",
			"\tfor i := 0; i < n; i++ {\n\t\tdst[i] = src[n-1-i]\n\t}",
			"",
		}
	}
	return []string{
		fmt.Sprintf("%s writes to dst the n bytes of src with the order of their", name),
		fmt.Sprintf("%d-byte elements reversed (n is a multiple of %d, m = n/%d):", K, K, K),
		"",
		fmt.Sprintf("\tfor i := 0; i < m; i++ {\n\t\tcopy(dst[i*%d:(i+1)*%d], src[(m-1-i)*%d:(m-i)*%d])\n\t}", K, K, K, K),
		"",
	}
}

func genReverse(a isa, K int) {
	name := fmt.Sprintf("reverse%d%s", K, a.name)
	kernel(name, "func(dst, src *byte, n int)", append(reverseDoc(name, K), a.feature())...)
	d := Load(Param("dst"), gp())
	s := Load(Param("src"), gp())
	n := Load(Param("n"), gp())
	short := newLabel("short")
	if a.V == 32 {
		CMPQ(n, U32(32))
		JB(LabelRef(short))
		rev, _ := reverser(a, K)
		reverseLong(a, K, d, s, n, rev)
		VZEROUPPER()
		RET()
		Label(short)
		reverseShortAVX2(d, s, n, K)
		RET()
		return
	}
	ret := newLabel("ret")
	TESTQ(n, n)
	JZ(LabelRef(ret))
	var index reg.VecVirtual
	if K == 1 {
		// The short path of K == 1 does not use the ZMM constants.
		CMPQ(n, U32(64))
		JB(LabelRef(short))
		rev, _ := reverser(a, K)
		reverseLong(a, K, d, s, n, rev)
	} else {
		var rev func(Op, reg.Register)
		rev, index = reverser(a, K)
		CMPQ(n, U32(64))
		JB(LabelRef(short))
		reverseLong(a, K, d, s, n, rev)
	}
	VZEROUPPER()
	RET()

	Label(short)
	reverseShortAVX512(d, s, n, K, index)
	VZEROUPPER()
	Label(ret)
	RET()
}

// reverseShortAVX512 reverses 0 < n < 64 bytes. K >= 2: one masked load of
// src[0:n], one permutation whose index is the reversing index shifted down
// by the (64-n)/K missing elements, one masked store of dst[0:n]; no byte
// outside src[0:n] or dst[0:n] is accessed (masked-off bytes lie above the
// ends, never below the pointers). K == 1 (VPERMB would need VBMI): a YMM or
// XMM pair of overlapping blocks for n >= 16, else a masked XMM VPSHUFB with
// the index n-1-i.
func reverseShortAVX512(d, s, n reg.Register, K int, index reg.VecVirtual) {
	k := kreg()
	lowMask(n, k)
	if K == 1 {
		y32, x16, done := newLabel("rev_y32"), newLabel("rev_x16"), newLabel("rev_sdone")
		CMPQ(n, U32(32))
		JAE(LabelRef(y32))
		CMPQ(n, U32(16))
		JAE(LabelRef(x16))
		// The index is c-i, c = n-1 plus 16-n for each window that
		// ends at its buffer's end.
		c, b := gp(), gp()
		LEAQ(at(n, -1), c)
		x := XMM()
		windowedReversal(d, s, n, 16, k, x, done, func() {
			ADDQ(U8(16), c)
			SUBQ(n, c)
		}, func() {
			idx := XMM()
			VPBROADCASTB(c.As32(), idx)
			LEAQ(iotaTable, b)
			VPSUBB(at(b, 0), idx, idx)
			VPSHUFB(idx, x, x)
		})

		Label(x16)
		b2, m := gp(), XMM()
		LEAQ(revConsts, b2)
		VMOVDQU(at(b2, offRev1), m)
		x0, x1 := XMM(), XMM()
		VMOVDQU(ati(s, n, -16), x0)
		VMOVDQU(at(s, 0), x1)
		VPSHUFB(m, x0, x0)
		VPSHUFB(m, x1, x1)
		VMOVDQU(x0, at(d, 0))
		VMOVDQU(x1, ati(d, n, -16))
		JMP(LabelRef(done))

		Label(y32)
		b3, ym := gp(), YMM()
		LEAQ(revConsts, b3)
		VBROADCASTI128(at(b3, offRev1), ym)
		y0, y1 := YMM(), YMM()
		VPERMQ(U8(0x4E), ati(s, n, -32), y0)
		VPERMQ(U8(0x4E), at(s, 0), y1)
		VPSHUFB(ym, y0, y0)
		VPSHUFB(ym, y1, y1)
		VMOVDQU(y0, at(d, 0))
		VMOVDQU(y1, ati(d, n, -32))
		Label(done)
		return
	}
	shift := map[int]int{2: 1, 4: 2, 8: 3, 16: 3}[K]
	t := gp()
	MOVQ(U32(64), t)
	SUBQ(n, t)
	SHRQ(U8(shift), t)
	// t, the index's shift down, drops by its own value for each window
	// that ends at its buffer's end.
	u := gp()
	MOVQ(t, u)
	z := ZMM()
	done := newLabel("rev_short_done")
	windowedReversal(d, s, n, 64, k, z, done, func() { SUBQ(u, t) }, func() {
		bc, idx := ZMM(), ZMM()
		switch K {
		case 2:
			VPBROADCASTW(t.As32(), bc)
			VPSUBW(bc, index, idx)
			VPERMW(z, idx, z)
		case 4:
			VPBROADCASTD(t.As32(), bc)
			VPSUBD(bc, index, idx)
			VPERMD(z, idx, z)
		default:
			VPBROADCASTQ(t, bc)
			VPSUBQ(bc, index, idx)
			VPERMQ(z, idx, z)
		}
	})
	Label(done)
}

// windowedReversal emits a short reversal's masked moves: the load of src's
// W-byte window into v (XMM or ZMM), permute, the store of v to dst's
// window under mask k (the first n bytes), then a jump to done. Each
// window is the one that starts at its buffer or, where that one would pass
// the page of the buffer's last byte (windowPast), the one that ends at its
// end, whose data is at its top; back runs once for each such window,
// before permute, to move permute's index up by the lanes below the data.
func windowedReversal(d, s, n reg.Register, W int, k reg.Register, v reg.VecVirtual, done string, back, permute func()) {
	sFar, dFar, dBack := newLabel("rev_s_far"), newLabel("rev_d_far"), newLabel("rev_d_back")
	sLoaded, dDecided, stored := newLabel("rev_s_loaded"), newLabel("rev_d_decided"), newLabel("rev_stored")
	windowPast(d, n, W, dFar)
	Label(dDecided)
	windowPast(s, n, W, sFar)
	VMOVDQU8_Z(at(s, 0), k, v)
	Label(sLoaded)
	permute()
	windowPast(d, n, W, dBack)
	VMOVDQU8(v, k, at(d, 0))
	Label(stored)
	JMP(LabelRef(done))

	kh := kreg()
	Label(dFar)
	back()
	JMP(LabelRef(dDecided))
	Label(sFar)
	back()
	highMask(n, W, kh)
	VMOVDQU8_Z(ati(s, n, -W), kh, v)
	JMP(LabelRef(sLoaded))
	Label(dBack)
	highMask(n, W, kh)
	VMOVDQU8(v, kh, ati(d, n, -W))
	JMP(LabelRef(stored))
}

// windowPast jumps to far when the W-byte window at p would reach past the
// page of p[n-1], the buffer's last byte (0 < n < W). A masked access
// whose masked-off bytes lie in a page that is not present costs a
// microcode assist of about 190 ns on a Zen 5 though it touches nothing
// there; the window that ends at p+n lies in that page instead.
func windowPast(p, n reg.Register, W int, far string) {
	t := gp()
	LEAQ(ati(p, n, -1), t)
	ORQ(U32(4095), t)
	SUBQ(U8(W-1), t)
	CMPQ(p, t)
	JHI(LabelRef(far))
}

// highMask sets k to the mask of the top n of W bytes (0 < n <= W <= 64).
func highMask(n reg.Register, W int, k reg.Register) {
	t, m := gp(), gp()
	MOVQ(U32(W), t)
	SUBQ(n, t)
	LEAQ(maskTable, m)
	KMOVQ(Mem{Base: m, Index: t, Scale: 8}, k)
	KNOTQ(k, k)
}

// reverseShortAVX2 reverses n < 32 bytes (n a multiple of K) from s to d: for
// the largest power of two W <= n, dst[0:W] = rev(src[n-W:n]) and
// dst[n-W:n] = rev(src[0:W]) (both blocks lie on the element grid).
func reverseShortAVX2(d, s, n reg.Register, K int) {
	ladder(n, 32, K, func(W int) {
		switch {
		case W == 16:
			x0, x1 := XMM(), XMM()
			switch K {
			case 1, 2:
				b, m := gp(), XMM()
				LEAQ(revConsts, b)
				off := offRev1
				if K == 2 {
					off = offRev2
				}
				VMOVDQU(at(b, off), m)
				VMOVDQU(ati(s, n, -16), x0)
				VMOVDQU(at(s, 0), x1)
				VPSHUFB(m, x0, x0)
				VPSHUFB(m, x1, x1)
			case 4:
				VPSHUFD(U8(0x1B), ati(s, n, -16), x0)
				VPSHUFD(U8(0x1B), at(s, 0), x1)
			case 8:
				VPSHUFD(U8(0x4E), ati(s, n, -16), x0)
				VPSHUFD(U8(0x4E), at(s, 0), x1)
			case 16:
				VMOVDQU(at(s, 0), x0)
				VMOVDQU(x0, at(d, 0))
				return
			}
			VMOVDQU(x0, at(d, 0))
			VMOVDQU(x1, ati(d, n, -16))
		case W == K:
			// n == K: one element.
			switch K {
			case 1:
				g := GP8()
				MOVB(at(s, 0), g)
				MOVB(g, at(d, 0))
			case 2:
				g := GP16()
				MOVW(at(s, 0), g)
				MOVW(g, at(d, 0))
			case 4:
				g := GP32()
				MOVL(at(s, 0), g)
				MOVL(g, at(d, 0))
			case 8:
				g := gp()
				MOVQ(at(s, 0), g)
				MOVQ(g, at(d, 0))
			}
		case W == 8:
			if K == 2 {
				x0, x1 := XMM(), XMM()
				VMOVQ(ati(s, n, -8), x0)
				VMOVQ(at(s, 0), x1)
				VPSHUFLW(U8(0x1B), x0, x0)
				VPSHUFLW(U8(0x1B), x1, x1)
				VMOVQ(x0, at(d, 0))
				VMOVQ(x1, ati(d, n, -8))
				return
			}
			g0, g1 := gp(), gp()
			MOVQ(ati(s, n, -8), g0)
			MOVQ(at(s, 0), g1)
			if K == 1 {
				BSWAPQ(g0)
				BSWAPQ(g1)
			} else { // K == 4
				ROLQ(U8(32), g0)
				ROLQ(U8(32), g1)
			}
			MOVQ(g0, at(d, 0))
			MOVQ(g1, ati(d, n, -8))
		case W == 4:
			g0, g1 := GP32(), GP32()
			MOVL(ati(s, n, -4), g0)
			MOVL(at(s, 0), g1)
			if K == 1 {
				BSWAPL(g0)
				BSWAPL(g1)
			} else { // K == 2
				ROLL(U8(16), g0)
				ROLL(U8(16), g1)
			}
			MOVL(g0, at(d, 0))
			MOVL(g1, ati(d, n, -4))
		case W == 2: // K == 1
			g0, g1 := GP16(), GP16()
			MOVW(ati(s, n, -2), g0)
			MOVW(at(s, 0), g1)
			ROLW(U8(8), g0)
			ROLW(U8(8), g1)
			MOVW(g0, at(d, 0))
			MOVW(g1, ati(d, n, -2))
		}
	})
}
