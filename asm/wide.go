package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// genRowsWide emits rowsWideAVX512: rows of at least 128 bytes whose pads
// are at most 64 bytes each, in any mode. The first and the last 64 bytes
// of a row hold the pads; each is one VPERMI2B over the first and the last
// 64 bytes of the src row (where the pads of every mode read), blended
// with the value, and one store. The bytes between are a plain copy. A row
// takes about width/64 stores, where the rows kernels store each pad
// separately, over the copy.
// wideLongMid is the middle length from which the wide kernel copies with
// the aligned loop of the rows kernels (copyLong) rather than vector by vector.
const wideLongMid = 1024

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
		"pattern's period). Only s[0:mid] is read; strides are >= 0.",
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
		Label(long) // a long middle: the aligned loop of four vectors
		{
			dm, m := gp(), gp()
			LEAQ(at(d, 64), dm)
			LEAQ(at(t, -64), m)
			copyLong(avx512, dm, s, m, true, true)
		}
		JMP(LabelRef(done))
		Label(short)
		z3 := ZMM()
		VMOVDQU8_Z(at(s, 0), kM, z3)
		VMOVDQU8(z3, kM, at(d, 64))
		Label(done)

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
