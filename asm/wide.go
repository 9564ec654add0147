package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// wideLongMid is the middle length from which the wide kernel copies by
// aligned loads and stores (copyShifted) rather than vector by vector:
// from 256 bytes, suite case j's 768-byte middles took 1.08x the memmove
// of their output instead of 1.16x (1 KiB: the old copy loop's threshold).
const wideLongMid = 256

// genRowsWide emits rowsWideAVX512: rows of at least 128 bytes whose pads
// are at most 64 bytes each, in any mode. The first and the last 64 bytes
// of a row hold the pads; each is one VPERMI2B over the first and the last
// 64 bytes of the src row (where the pads of every mode read), blended
// with the value, and one store. The bytes between are a plain copy. A row
// takes about width/64 stores, where the rows kernels store each pad
// separately, over the copy.
func genRowsWide() {
	name := "rowsWideAVX512"
	kernel(name, "func(dst, src *byte, rows, dstStride, srcStride, width, mid, left int, tab *[144]byte, pat *[32]byte, planes, dstPlane, srcPlane int)",
		name+" pads rows of width >= 128 bytes from src rows of mid >= 64 bytes,",
		"left <= 64 and width-left-mid <= 64: for planes p and rows r, with",
		"d = dst[p*dstPlane+r*dstStride:] and s = src[p*srcPlane+r*srcStride:],",
		"d[i] = s[i-left] for 64 <= i < width-64; the first and the last 64 bytes",
		"of d come from the window w = s[0:64] ++ s[mid-64:mid] by tab: head byte",
		"d[i] (i < 64) is w[tab[i]] if bit i of the uint64 at tab[128:] is set,",
		"else pat[i%32]; tail byte d[width-64+i] is w[tab[64+i]] if bit i of the",
		"uint64 at tab[136:] is set, else pat[i%32] (width is a multiple of the",
		"pattern's period). It reads s[0:mid] and, where the middle is 256 bytes",
		"or more, the rest of the 64-byte lines that hold it; strides are >= 0.",
		"",
		"It requires AVX-512 F, BW and VBMI.")
	d := Load(Param("dst"), gp())
	s := Load(Param("src"), gp())
	rows := Load(Param("rows"), gp())
	planes := Load(Param("planes"), gp())

	ret := newLabel("wide_ret")
	TESTQ(rows, rows)
	JZ(LabelRef(ret))
	TESTQ(planes, planes)
	JZ(LabelRef(ret))

	wt := loadWideTable()

	// Per call: t = width-64 (the tail, in d); s moves to the middle's
	// source (s+64-left), from which the windows are at wa = left-64 and
	// wb = mid-128+left; kM is the mask of a middle shorter than 64 bytes
	// (width < 192). wa, wb, the plane bases and the plane count live in
	// the frame: the long middle's aligned copy needs the registers.
	loc := AllocLocal(40)
	locWa, locWb, locD0, locS0, locPlanes := loc.Offset(0), loc.Offset(8), loc.Offset(16), loc.Offset(24), loc.Offset(32)
	// A short middle's masked load takes a 64-byte window, which may pass
	// the src row's end (its store stays in the dst row, of 128 bytes or
	// more). A masked access whose masked-off bytes lie in a page that is
	// not present costs a microcode assist of about 190 ns on a Zen 5,
	// though it touches nothing there: a middle whose window would reach
	// past the page of the call's last src byte (the last row's, or every
	// row's for srcStride 0) is copied exactly instead. sLimit is the
	// highest middle source address whose window ends in that page.
	sLimit := gp()
	{
		x := gp()
		Load(Param("planes"), sLimit)
		DECQ(sLimit)
		IMULQ(paramMem("srcPlane"), sLimit)
		Load(Param("rows"), x)
		DECQ(x)
		IMULQ(paramMem("srcStride"), x)
		ADDQ(x, sLimit)
		ADDQ(s, sLimit)
		ADDQ(paramMem("mid"), sLimit)
		DECQ(sLimit)
		ORQ(U32(4095), sLimit)
		SUBQ(U8(63), sLimit)
	}
	width := Load(Param("width"), gp())
	t := gp()
	LEAQ(at(width, -64), t)
	{
		left := Load(Param("left"), gp())
		wa, wb := gp(), gp()
		LEAQ(at(left, -64), wa)
		mid := Load(Param("mid"), gp())
		LEAQ(ati(mid, left, -128), wb)
		SUBQ(wa, s)
		MOVQ(wa, locWa)
		MOVQ(wb, locWb)
	}
	kM := kreg()
	{
		m := gp()
		LEAQ(at(width, -128), m) // the middle's length
		CMPQ(m, U8(64))
		short := newLabel("wide_mshort")
		JB(LabelRef(short))
		XORQ(m, m)
		Label(short)
		tbl := gp()
		LEAQ(maskTable, tbl)
		KMOVQ(Mem{Base: tbl, Index: m, Scale: 8}, kM)
	}
	MOVQ(d, locD0)
	MOVQ(s, locS0)
	MOVQ(planes, locPlanes)
	ds := Load(Param("dstStride"), gp())
	ss := Load(Param("srcStride"), gp())

	var outOfLine []func() // blocks after the kernel's return
	row := func() {
		// The middle first: when it is short, its vector may overlap the
		// head, which is stored after it.
		short, done, loop, last, long := newLabel("wide_short"), newLabel("wide_mid_done"), newLabel("wide_mid_loop"), newLabel("wide_mid_last"), newLabel("wide_long")
		CMPQ(t, U32(128))
		JB(LabelRef(short))
		CMPQ(t, U32(64+wideLongMid))
		JAE(LabelRef(long))
		i := gp()
		MOVQ(U32(64), i)
		Label(loop)
		LEAQ(at(i, 64), i)
		CMPQ(i, t)
		JAE(LabelRef(last))
		z := ZMM()
		VMOVDQU64(ati(s, i, -128), z)
		VMOVDQU64(z, ati(d, i, -64))
		JMP(LabelRef(loop))
		Label(last) // the vector ending at the tail
		z2 := ZMM()
		VMOVDQU64(ati(s, t, -128), z2)
		VMOVDQU64(z2, ati(d, t, -64))
		JMP(LabelRef(done))
		Label(long) // a long middle: aligned loads and stores
		{
			dm, m := gp(), gp()
			LEAQ(at(d, 64), dm)
			LEAQ(at(t, -64), m)
			copyShifted(dm, s, m)
		}
		JMP(LabelRef(done))
		Label(short)
		exact := newLabel("wide_mid_exact")
		CMPQ(s, sLimit)
		JHI(LabelRef(exact))
		z3 := ZMM()
		VMOVDQU8_Z(at(s, 0), kM, z3)
		VMOVDQU8(z3, kM, at(d, 64))
		Label(done)
		outOfLine = append(outOfLine, func() {
			Label(exact)
			dm, m := gp(), gp()
			LEAQ(at(d, 64), dm)
			LEAQ(at(t, -64), m)
			copyExactAVX2(dm, s, m, 1)
			JMP(LabelRef(done))
		})

		wa, wb := gp(), gp()
		MOVQ(locWa, wa)
		MOVQ(locWb, wb)
		wH, wT := ZMM(), ZMM()
		VMOVDQU64(ati(s, wa, 0), wH)
		VMOVDQU64(ati(s, wb, 0), wT)
		pH, pT := ZMM(), ZMM()
		wt.head(wH, wT, pH)
		wt.tail(wH, wT, pT)
		VMOVDQU64(pH, at(d, 0))
		VMOVDQU64(pT, ati(d, t, 0))
	}

	pl, rl := newLabel("wide_planes"), newLabel("wide_rows")
	Label(pl)
	MOVQ(locD0, d)
	MOVQ(locS0, s)
	Load(Param("rows"), rows)
	Label(rl)
	row()
	ADDQ(ds, d)
	ADDQ(ss, s)
	DECQ(rows)
	JNZ(LabelRef(rl))
	{
		x := Load(Param("dstPlane"), gp())
		ADDQ(x, locD0)
		y := Load(Param("srcPlane"), gp())
		ADDQ(y, locS0)
	}
	DECQ(locPlanes)
	JNZ(LabelRef(pl))
	VZEROUPPER()
	Label(ret)
	RET()
	for _, f := range outOfLine {
		f()
	}
}

// wideTable holds a head-and-tail table (the wide and aligned kernels) in
// registers: the index vectors and take masks of the head and the tail,
// and the value pattern.
type wideTable struct {
	idxH, idxT, zpat reg.VecVirtual
	takeH, takeT     reg.Register
}

// loadWideTable loads the parameters tab and pat.
func loadWideTable() wideTable {
	tab := Load(Param("tab"), gp())
	w := wideTable{takeH: kreg(), takeT: kreg(), idxH: ZMM(), idxT: ZMM(), zpat: ZMM()}
	KMOVQ(at(tab, 128), w.takeH)
	KMOVQ(at(tab, 136), w.takeT)
	VMOVDQU64(at(tab, 0), w.idxH)
	VMOVDQU64(at(tab, 64), w.idxT)
	pat := Load(Param("pat"), gp())
	VBROADCASTI64X4(at(pat, 0), w.zpat)
	return w
}

// head sets out to a row's first 64 output bytes from its window wH ++ wT
// (the src row's first and last 64 bytes); tail to its last 64.
func (w wideTable) head(wH, wT, out reg.VecVirtual) { w.permute(wH, wT, w.idxH, w.takeH, out) }

func (w wideTable) tail(wH, wT, out reg.VecVirtual) { w.permute(wH, wT, w.idxT, w.takeT, out) }

func (w wideTable) permute(wH, wT, idx reg.VecVirtual, take reg.Register, out reg.VecVirtual) {
	VMOVDQU64(idx, out)
	VPERMI2B(wT, wH, out)
	VPBLENDMB(out, w.zpat, take, out)
}

// shiftedSrc is how 64-byte-aligned dst blocks take their bytes from src
// by aligned loads when each block's bytes are off bytes on from it: lo
// and hi are the offsets from the block of the two aligned src blocks
// that hold them (the same one when off is a multiple of 64), idx their
// VPERMT2B indexes in lo ++ hi.
type shiftedSrc struct {
	lo, hi reg.GPVirtual
	idx    reg.VecVirtual
}

// newShiftedSrc emits the set-up of a shiftedSrc for off (iota holds the
// bytes 0..63).
func newShiftedSrc(off reg.Register, iota Op) shiftedSrc {
	s := shiftedSrc{gp(), gp(), ZMM()}
	MOVQ(off, s.lo)
	ANDQ(I32(-64), s.lo)
	LEAQ(at(off, 63), s.hi)
	ANDQ(I32(-64), s.hi)
	sh := gp()
	MOVQ(off, sh)
	ANDQ(U8(63), sh)
	byteRamp(sh, iota, s.idx)
	return s
}

// block emits the loads of the dst block at p+disp (p 64-byte aligned)
// and returns it.
func (s shiftedSrc) block(p reg.Register, disp int) reg.VecVirtual {
	v := ZMM()
	VMOVDQA64(Mem{Base: p, Index: s.lo, Scale: 1, Disp: disp}, v)
	VPERMT2B(Mem{Base: p, Index: s.hi, Scale: 1, Disp: disp}, s.idx, v)
	return v
}

// copyShifted copies n >= 64 bytes from s to d by 64-byte-aligned loads
// and stores: each aligned block of d is one VPERMT2B of the two aligned
// src blocks that hold its bytes (the same block twice when d and s are
// in the same phase). The first and the last 64 bytes are unaligned
// vectors. No load or store of the loop straddles two cache lines, and
// it reads only lines that hold bytes of s[0:n].
func copyShifted(d, s, n reg.Register) {
	z := ZMM()
	VMOVDQU64(at(s, 0), z)
	VMOVDQU64(z, at(d, 0))
	// dp: the first aligned block after d's first, walking dst and src
	// at once: its bytes are at s-d from it.
	dp, end, off := gp(), gp(), gp()
	LEAQ(ati(d, n, 0), end)
	LEAQ(at(d, 64), dp)
	ANDQ(I32(-64), dp)
	MOVQ(s, off)
	SUBQ(d, off)
	src := newShiftedSrc(off, iota64)
	block := func(disp int) reg.VecVirtual { return src.block(dp, disp) }
	l4, l1, l1top, done := newLabel("shift4"), newLabel("shift1"), newLabel("shift1_top"), newLabel("shift_done")
	e4 := gp()
	LEAQ(at(end, -256), e4)
	CMPQ(dp, e4)
	JAE(LabelRef(l1top))
	Label(l4) // four blocks a turn while they end before the last 64 bytes
	var v [4]reg.VecVirtual
	for j := range v {
		v[j] = block(64 * j)
	}
	for j := range v {
		VMOVDQA64(v[j], at(dp, 64*j))
	}
	ADDQ(U32(256), dp)
	CMPQ(dp, e4)
	JB(LabelRef(l4))
	Label(l1top)
	e1 := gp()
	LEAQ(at(end, -64), e1)
	Label(l1)
	CMPQ(dp, e1)
	JAE(LabelRef(done))
	VMOVDQA64(block(0), at(dp, 0))
	ADDQ(U8(64), dp)
	JMP(LabelRef(l1))
	Label(done)
	u := ZMM()
	VMOVDQU64(ati(s, n, -64), u)
	VMOVDQU64(u, at(e1, 0))
}
