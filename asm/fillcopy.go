package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// fillLong stores the pattern vector y over exactly [d, d+n), n >= a.V, with
// overlapping unaligned stores: every store is at an offset that is a
// multiple of a.V from d or ends at d+n, both multiples of the period.
// With align, the main loop (n > 4V) stores to a.V-aligned addresses: a
// first unaligned store covers the head, and the loop stores the pattern
// rotated by the distance from d to the aligned address (an in-lane VPSHUFB,
// valid because the period divides 16, so every 16-byte lane of y is equal).
func fillLong(a isa, d, n reg.Register, y reg.Register, align bool) {
	V := a.V
	le2, le4, loop, done := newLabel("fill_le2"), newLabel("fill_le4"), newLabel("fill_loop"), newLabel("fill_done")
	CMPQ(n, U32(2*V))
	JBE(LabelRef(le2))
	CMPQ(n, U32(4*V))
	JBE(LabelRef(le4))

	last, p := gp(), gp()
	LEAQ(ati(d, n, -4*V), last)
	ly := y
	if align {
		tail := newLabel("fill_tail")
		a.store(y, at(d, 0))
		LEAQ(at(d, V), p)
		ANDQ(I32(-V), p)
		rot, t := gp(), gp()
		MOVQ(p, rot)
		SUBQ(d, rot)
		ANDQ(U8(15), rot)
		LEAQ(iotaTable, t)
		idx := a.vec()
		a.load(ati(t, rot, 0), idx)
		ry := a.vec()
		VPSHUFB(idx, y, ry)
		ly = ry
		CMPQ(p, last)
		JAE(LabelRef(tail))
		Label(loop)
		for j := 0; j < 4; j++ {
			a.storeAligned(ly, at(p, j*V))
		}
		ADDQ(U32(4*V), p)
		CMPQ(p, last)
		JB(LabelRef(loop))
		Label(tail)
	} else {
		MOVQ(d, p)
		Label(loop)
		for j := 0; j < 4; j++ {
			a.store(ly, at(p, j*V))
		}
		ADDQ(U32(4*V), p)
		CMPQ(p, last)
		JB(LabelRef(loop))
	}
	for j := 0; j < 4; j++ {
		a.store(y, at(last, j*V))
	}
	JMP(LabelRef(done))

	Label(le4)
	a.store(y, at(d, 0))
	a.store(y, at(d, V))
	a.store(y, ati(d, n, -2*V))
	a.store(y, ati(d, n, -V))
	JMP(LabelRef(done))

	Label(le2)
	a.store(y, at(d, 0))
	a.store(y, ati(d, n, -V))
	Label(done)
}

// fillShort stores the pattern over exactly [d, d+n) for n < 32 (n a
// multiple of minW), from x (the pattern's low 16 bytes in an XMM register)
// or g (which returns its low 8 bytes in a general register).
func fillShort(d, n reg.Register, x reg.Register, g func() reg.GPVirtual, minW int) {
	ladder(n, 32, minW, func(W int) {
		if W == 16 {
			VMOVDQU(x, at(d, 0))
			VMOVDQU(x, ati(d, n, -16))
			return
		}
		t := asWidth(g(), W)
		mov := gprMove(W)
		mov(t, at(d, 0))
		if W > 1 {
			mov(t, ati(d, n, -W))
		}
	})
}

// copyLong copies exactly n >= a.V bytes from s to d. With align, the main
// loop (n > 4V) stores to a.V-aligned addresses after an unaligned head
// (streaming stores for a stream isa).
//
// With big, the caller guarantees n > 4V and only the loop is emitted.
func copyLong(a isa, d, s, n reg.Register, align bool, big ...bool) {
	V := a.V
	le2, le4, loop, done := newLabel("copy_le2"), newLabel("copy_le4"), newLabel("copy_loop"), newLabel("copy_done")
	isBig := len(big) > 0 && big[0]
	if !isBig {
		CMPQ(n, U32(2*V))
		JBE(LabelRef(le2))
		CMPQ(n, U32(4*V))
		JBE(LabelRef(le4))
	}

	v := [4]reg.VecVirtual{a.vec(), a.vec(), a.vec(), a.vec()}
	last, dp, sp := gp(), gp(), gp()
	LEAQ(ati(d, n, -4*V), last)
	body := func(store func(v reg.Register, m Mem)) {
		Label(loop)
		for j := 0; j < 4; j++ {
			a.load(at(sp, j*V), v[j])
		}
		for j := 0; j < 4; j++ {
			store(v[j], at(dp, j*V))
		}
		ADDQ(U32(4*V), dp)
		ADDQ(U32(4*V), sp)
		CMPQ(dp, last)
		JB(LabelRef(loop))
	}
	if align {
		tail := newLabel("copy_tail")
		a.load(at(s, 0), v[0])
		a.store(v[0], at(d, 0))
		delta := gp()
		LEAQ(at(d, V), dp)
		ANDQ(I32(-V), dp)
		MOVQ(dp, delta)
		SUBQ(d, delta)
		LEAQ(ati(s, delta, 0), sp)
		CMPQ(dp, last)
		JAE(LabelRef(tail))
		body(a.storeAligned)
		Label(tail)
	} else {
		MOVQ(d, dp)
		MOVQ(s, sp)
		body(a.store)
	}
	LEAQ(ati(s, n, -4*V), sp)
	for j := 0; j < 4; j++ {
		a.load(at(sp, j*V), v[j])
	}
	for j := 0; j < 4; j++ {
		a.store(v[j], at(last, j*V))
	}
	if isBig {
		return
	}
	JMP(LabelRef(done))

	Label(le4)
	w := [4]reg.VecVirtual{a.vec(), a.vec(), a.vec(), a.vec()}
	a.load(at(s, 0), w[0])
	a.load(at(s, V), w[1])
	a.load(ati(s, n, -2*V), w[2])
	a.load(ati(s, n, -V), w[3])
	a.store(w[0], at(d, 0))
	a.store(w[1], at(d, V))
	a.store(w[2], ati(d, n, -2*V))
	a.store(w[3], ati(d, n, -V))
	JMP(LabelRef(done))

	Label(le2)
	u0, u1 := a.vec(), a.vec()
	a.load(at(s, 0), u0)
	a.load(ati(s, n, -V), u1)
	a.store(u0, at(d, 0))
	a.store(u1, ati(d, n, -V))
	Label(done)
}

// copyShort copies exactly n < 32 bytes (n a multiple of minW) from s to d.
func copyShort(d, s, n reg.Register, minW int) {
	ladder(n, 32, minW, func(W int) { movePair(W, d, s, n) })
}

const fillDoc = `	for i := 0; i < n; i++ {
		dst[i] = pat[i%32]
	}`

const copyDoc = `	for i := 0; i < n; i++ {
		dst[i] = src[i]
	}`

func genFill(a isa) {
	name := "fill" + a.name
	kernel(name, "func(dst *byte, n int, pat *[32]byte)",
		name+" writes n bytes of the pattern pat to dst. pat repeats with a period",
		"p in {1, 2, 4, 8, 16} and n is a multiple of p:",
		"", fillDoc, "", a.feature())
	d := Load(Param("dst"), gp())
	n := Load(Param("n"), gp())
	p := Load(Param("pat"), gp())
	short := newLabel("short")
	if a.V == 32 {
		CMPQ(n, U32(32))
		JB(LabelRef(short))
		y := YMM()
		VMOVDQU(at(p, 0), y)
		fillLong(a, d, n, y, true)
		VZEROUPPER()
		RET()

		Label(short)
		x := XMM()
		g := gp()
		VMOVDQU(at(p, 0), x)
		MOVQ(at(p, 0), g)
		fillShort(d, n, x, func() reg.GPVirtual { return g }, 1)
		RET()
		return
	}
	// n <= 32: one masked YMM store; n <= 64: two overlapping YMM stores
	// (measured faster than one masked ZMM store, which splits a cache line
	// more often); else ZMM.
	ret, pair := newLabel("ret"), newLabel("pair")
	TESTQ(n, n)
	JZ(LabelRef(ret))
	z := ZMM()
	VBROADCASTI64X4(at(p, 0), z)
	CMPQ(n, U32(32))
	JBE(LabelRef(short))
	CMPQ(n, U32(64))
	JBE(LabelRef(pair))
	fillLong(a, d, n, z, true)
	VZEROUPPER()
	RET()

	Label(pair)
	VMOVDQU(z.AsY(), at(d, 0))
	VMOVDQU(z.AsY(), ati(d, n, -32))
	VZEROUPPER()
	RET()

	// Where the window at d would pass the page of dst's last byte (a
	// masked store's masked-off bytes in a page that is not present cost
	// an assist of about 190 ns on a Zen 5), the window that ends at d+n:
	// the pattern's period divides 32, so its phase there is the same.
	Label(short)
	k, far := kreg(), newLabel("fill_far")
	windowPast(d, n, 32, far)
	lowMask(n, k)
	VMOVDQU8(z.AsY(), k, at(d, 0))
	VZEROUPPER()
	Label(ret)
	RET()
	Label(far)
	highMask(n, 32, k)
	VMOVDQU8(z.AsY(), k, ati(d, n, -32))
	VZEROUPPER()
	RET()
}

func genCopy(a isa) {
	name := "copy" + a.name
	kernel(name, "func(dst, src *byte, n int)",
		name+" copies n bytes from src to dst, which do not overlap:",
		"", copyDoc, "", a.feature())
	d := Load(Param("dst"), gp())
	s := Load(Param("src"), gp())
	n := Load(Param("n"), gp())
	short := newLabel("short")
	if a.V == 32 {
		CMPQ(n, U32(32))
		JB(LabelRef(short))
		copyLong(a, d, s, n, true)
		VZEROUPPER()
		RET()
		Label(short)
		copyShort(d, s, n, 1)
		RET()
		return
	}
	// As fill: masked YMM for n <= 32, a YMM pair for n <= 64, else ZMM.
	ret, pair := newLabel("ret"), newLabel("pair")
	TESTQ(n, n)
	JZ(LabelRef(ret))
	CMPQ(n, U32(32))
	JBE(LabelRef(short))
	CMPQ(n, U32(64))
	JBE(LabelRef(pair))
	copyLong(a, d, s, n, true)
	VZEROUPPER()
	RET()

	Label(pair)
	y0, y1 := YMM(), YMM()
	VMOVDQU(at(s, 0), y0)
	VMOVDQU(ati(s, n, -32), y1)
	VMOVDQU(y0, at(d, 0))
	VMOVDQU(y1, ati(d, n, -32))
	VZEROUPPER()
	RET()

	// Where a window would pass the page of its buffer's last byte (see
	// fill), the exact moves of the AVX2 copy instead.
	Label(short)
	k, y, far := kreg(), YMM(), newLabel("copy_far")
	windowPast(s, n, 32, far)
	windowPast(d, n, 32, far)
	lowMask(n, k)
	VMOVDQU8_Z(at(s, 0), k, y)
	VMOVDQU8(y, k, at(d, 0))
	VZEROUPPER()
	Label(ret)
	RET()
	Label(far)
	copyShort(d, s, n, 1)
	VZEROUPPER()
	RET()
}

// genCopyRep emits copyRep: REP MOVSB, whose fast-string microcode writes
// whole cache lines without reading them first (an ordinary store reads
// the line it writes). The dispatch (copyBytes) uses it where measured to
// win: long copies, but where dst lies 1 to 63 bytes after src modulo
// 4 KiB (repCopies).
func genCopyRep() {
	kernel("copyRep", "func(dst, src *byte, n int)",
		"copyRep copies n bytes from src to dst, which do not overlap, with REP",
		"MOVSB:", "", copyDoc, "", "It requires ERMS (fast REP MOVSB).")
	d := Load(Param("dst"), gp())
	s := Load(Param("src"), gp())
	n := Load(Param("n"), gp())
	repMovsb(d, s, n)
	RET()
}
