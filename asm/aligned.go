package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// iota64 holds byte j at offset j (0..63): added to a broadcast shift it
// is the VPERMI2B index that extracts 64 bytes at that shift from the
// concatenation of two vectors.
var iota64 Mem

// clampMasks holds, at clampZero+8i for i in [-128, 192), the mask of
// the first min(max(i, 0), 64) bytes of a vector.
var clampMasks Mem

const clampZero = 128 * 8

func genClampMasks() {
	clampMasks = GLOBL("clampmasks", RODATA|NOPTR)
	for i := -128; i < 192; i++ {
		n := min(max(i, 0), 64)
		v := ^uint64(0)
		if n < 64 {
			v = 1<<uint(n) - 1
		}
		DATA(clampZero+8*i, U64(v))
	}
}

func genIota64() {
	iota64 = GLOBL("iota64", RODATA|NOPTR)
	for j := 0; j < 64; j++ {
		DATA(j, U8(uint8(j)))
	}
}

// genRowsAligned emits rowsAlignedAVX512: the wide kernel's rows when they
// follow each other in dst (dstStride == width), written as one stream of
// 64-byte-aligned stores. Rows whose width is not a multiple of 64 make
// the wide kernel's stores straddle cache lines (a conv pad of 56-float
// rows to 58: 232 bytes).
//
// Between two row starts b (boundaries, the stream's ends included) the
// stream is a copy of the src row shifted by left. An aligned block
// [p, p+64) that reaches into the pads around a boundary b (from b-right
// to b+left) takes its pad bytes from the window of 128 bytes around b:
// the previous row's tail (its last 64 output bytes, as the wide kernel
// makes them) followed by the next row's head; the window's bytes at
// p-b+64 are one VPERMI2B with the index iota+64-(b-p). Its other bytes
// are the copies of the rows around b (merge-masked loads; mid >= 64
// keeps them inside those copies). When the pads take no src byte
// (constant padding) the window is the pattern and no row's head or tail
// is made. Every other block is one load and one aligned store. The top
// and bottom pads around a plane's rows (pad rows of constant padding)
// are blocks of the pattern. The first and the last block of a plane's
// output store under a mask.
func genRowsAligned(a isa) {
	name := "rowsAligned" + a.name
	kernel(name, "func(dst, src *byte, rows, srcStride, width, mid, left int, tab *[144]byte, pat *[32]byte, planes, dstPlane, srcPlane, top, bottom int)",
		name+" writes what rowsWideAVX512 writes with dstStride == width, when",
		"the table agrees with the copy: head byte i (left <= i < 64) is",
		"s[i-left] and tail byte d[width-64+i] (width-64+i < left+mid) is",
		"s[width-64+i-left]; and the pattern in the top bytes before each",
		"plane's rows and the bottom bytes after them (multiples of the",
		"pattern's period), as pad rows. It stores 64-byte-aligned vectors",
		"only (masked at the ends of each plane's output), and may read the",
		"rest of the 64-byte lines that hold the bytes of a src row.",
		"",
		streamDoc(a)+"It requires AVX-512 F, BW and VBMI.")
	ret := newLabel("aligned_ret")
	{
		rows := Load(Param("rows"), gp())
		TESTQ(rows, rows)
		JZ(LabelRef(ret))
		planes := Load(Param("planes"), gp())
		TESTQ(planes, planes)
		JZ(LabelRef(ret))
	}

	wt := loadWideTable()
	ziota := ZMM()
	VMOVDQU64(iota64, ziota)

	// The frame: the plane's dst and src, the planes left, the end of the
	// plane's rows, max(left, 1), the offset of the window of a row's tail
	// (mid-64), the mask tables at -right (the bytes before b-right) and at
	// left (the bytes before b+left), right, whether the pads around a
	// boundary take two blocks (left+right <= 64), and the plane's output
	// (its rows and its top and bottom pads).
	loc := AllocLocal(96)
	f := alignedFrame{
		d0: loc.Offset(0), s0: loc.Offset(8), planes: loc.Offset(16), end: loc.Offset(24),
		left1: loc.Offset(32), tailW: loc.Offset(40), lead: loc.Offset(48), trail: loc.Offset(56),
		right: loc.Offset(64), twoGaps: loc.Offset(72), lo: loc.Offset(80), hi: loc.Offset(88),
	}
	fixed := newLabel("aligned_fixed")
	{
		d := Load(Param("dst"), gp())
		MOVQ(d, f.d0)
		s := Load(Param("src"), gp())
		MOVQ(s, f.s0)
		planes := Load(Param("planes"), gp())
		MOVQ(planes, f.planes)
		left := Load(Param("left"), gp())
		mid := Load(Param("mid"), gp())
		right := Load(Param("width"), gp())
		SUBQ(left, right)
		SUBQ(mid, right)
		MOVQ(right, f.right)
		// Pads of at most 64 bytes around each boundary: two blocks.
		two := gp()
		LEAQ(Mem{Base: left, Index: right, Scale: 1, Disp: -65}, two)
		SHRQ(U8(63), two)
		MOVQ(two, f.twoGaps)
		m := gp()
		LEAQ(clampMasks, m)
		t := gp()
		LEAQ(Mem{Base: m, Index: left, Scale: 8, Disp: clampZero}, t)
		MOVQ(t, f.trail)
		MOVQ(right, t)
		SHLQ(U8(3), t)
		NEGQ(t)
		LEAQ(Mem{Base: m, Index: t, Scale: 1, Disp: clampZero}, t)
		MOVQ(t, f.lead)
		// The pads take no src byte when the head's first left and the
		// tail's last right bytes are not taken.
		h := gp()
		KMOVQ(wt.takeH, h)
		ANDQ(Mem{Base: m, Index: left, Scale: 8, Disp: clampZero}, h)
		NEGQ(right)
		tl := gp()
		MOVQ(Mem{Base: m, Index: right, Scale: 8, Disp: clampZero + 64*8}, tl)
		NOTQ(tl)
		KMOVQ(wt.takeT, t)
		ANDQ(t, tl)
		ORQ(h, tl)
		one := gp()
		MOVQ(U32(1), one)
		CMPQ(left, one)
		CMOVQLT(one, left)
		MOVQ(left, f.left1)
		SUBQ(U8(64), mid)
		MOVQ(mid, f.tailW)
		TESTQ(tl, tl)
		JZ(LabelRef(fixed))
	}
	alignedPlanes(a, false, f, wt, ziota)
	JMP(LabelRef(ret))
	Label(fixed)
	alignedPlanes(a, true, f, wt, ziota)
	Label(ret)
	RET()
}

// alignedFrame is rowsAlignedAVX512's frame (see genRowsAligned).
type alignedFrame struct{ d0, s0, planes, end, left1, tailW, lead, trail, right, twoGaps, lo, hi Mem }

// alignedPlanes emits rowsAlignedAVX512's loop over planes; fixed: the
// pads are the pattern (no windows).

func alignedPlanes(a isa, fixed bool, f alignedFrame, wt wideTable, ziota reg.VecVirtual) {
	zpat := wt.zpat
	// p is the next aligned block, b the boundary (the start of row r),
	// dCur and dPrev the offsets from dst to src addresses of the copies
	// of rows r and r-1 (src address = p + d), s the src row r.
	p, b, s, dCur, dPrev, rc := gp(), gp(), gp(), gp(), gp(), gp()
	H, T := ZMM(), ZMM()
	wH, wT := ZMM(), ZMM()
	// The pattern in the phase of the plane's aligned blocks: the pads of
	// fixed rows, the top and bottom pads of both.
	zp := ZMM()

	// clippedStore stores the block v at q under a mask: not below the
	// plane's output nor from its end on.
	clippedStore := func(v reg.VecVirtual, q reg.Register) {
		ks, kh := kreg(), kreg()
		n, zero := gp(), gp()
		MOVQ(f.lo, n)
		SUBQ(q, n)
		XORQ(zero, zero)
		CMPQ(n, zero)
		CMOVQLT(zero, n)
		lowMask(n, ks)
		KNOTQ(ks, ks)
		e, c := gp(), gp()
		MOVQ(f.hi, e)
		SUBQ(q, e)
		MOVQ(U32(64), c)
		CMPQ(e, c)
		CMOVQGT(c, e)
		lowMask(e, kh)
		KANDQ(kh, ks, ks)
		VMOVDQU8(v, ks, at(q, 0))
	}

	// gapBlock writes the block at q around boundary b, taking the bytes
	// before b-right from row r-1's copy (by lead's masks) and those from
	// b+left on from row r's (by trail's). At the first boundary no row
	// precedes, at the last none follows; there the store is masked to
	// the plane's rows.
	gapBlock := func(q, lead, trail reg.Register, first, last bool) {
		k := gp()
		MOVQ(b, k)
		SUBQ(q, k) // k = b-q, in (-left-64, 64+right]
		v := ZMM()
		if fixed {
			VMOVDQA64(zp, v)
		} else {
			sh := gp()
			MOVQ(U32(64), sh)
			SUBQ(k, sh)
			byteRamp(sh, ziota, v)
			VPERMI2B(H, T, v) // indices below 64 take the tail before b
		}
		kl := kreg()
		if !first { // bytes before b-right: row r-1's copy
			KMOVQ(Mem{Base: lead, Index: k, Scale: 8}, kl)
			VMOVDQU8(ati(q, dPrev, 0), kl, v)
		}
		if !last { // bytes from b+left on: row r's copy
			KMOVQ(Mem{Base: trail, Index: k, Scale: 8}, kl)
			KNOTQ(kl, kl)
			VMOVDQU8(ati(q, dCur, 0), kl, v)
		}
		if !first && !last {
			a.storeAligned(v, at(q, 0))
			return
		}
		clippedStore(v, q)
	}

	// gapBlocks writes the blocks from p below gapEnd, around boundary b.
	gapBlocks := func(gapEnd reg.Register, first, last bool) {
		loop, done := newLabel("aligned_gap"), newLabel("aligned_gap_done")
		lead, trail := gp(), gp()
		if !first {
			MOVQ(f.lead, lead)
		}
		if !last {
			MOVQ(f.trail, trail)
		}
		Label(loop)
		CMPQ(p, gapEnd)
		JAE(LabelRef(done))
		gapBlock(p, lead, trail, first, last)
		ADDQ(U8(64), p)
		JMP(LabelRef(loop))
		Label(done)
	}

	// twoGapBlocks writes the blocks around boundary b when the pads
	// around it span at most 64 bytes (left+right <= 64): the blocks
	// holding b-right and b+left-1, once when one holds both. The branch
	// follows the row's phase, which repeats every 64/gcd(width, 64) rows
	// at most: predicted, where storing the block twice cost a third of
	// the kernel's time in L1. p is left at the block after them.
	twoGapBlocks := func() {
		lead, trail := gp(), gp()
		MOVQ(f.lead, lead)
		MOVQ(f.trail, trail)
		q := gp()
		MOVQ(b, q)
		SUBQ(f.right, q)
		ANDQ(I32(-64), q)
		gapBlock(q, lead, trail, false, false)
		left := Load(Param("left"), gp())
		LEAQ(Mem{Base: b, Index: left, Scale: 1, Disp: -1}, p)
		ANDQ(I32(-64), p)
		one := newLabel("aligned_one_gap")
		CMPQ(p, q)
		JE(LabelRef(one))
		gapBlock(p, lead, trail, false, false)
		Label(one)
		ADDQ(U8(64), p)
	}

	// head and tail make row r's head and tail from its first and last 64
	// src bytes.
	head := func() {
		if fixed {
			return
		}
		tw := gp()
		MOVQ(f.tailW, tw)
		VMOVDQU64(at(s, 0), wH)
		VMOVDQU64(ati(s, tw, 0), wT)
		wt.head(wH, wT, H)
	}
	tail := func() {
		if fixed {
			return
		}
		wt.tail(wH, wT, T)
	}

	// rowLoop emits the rows after the first boundary: at each boundary b,
	// between rows r-1 and r, the head of row r and the blocks below
	// b+left (two: exactly two blocks), then the tail of row r (for the
	// next boundary) and the blocks of its copy, those that end by the
	// right pad, p+64 <= b+left+mid. It enters at the copy of row 0.
	rowLoop := func(two bool) {
		rl, body := newLabel("aligned_rows"), newLabel("aligned_body")
		JMP(LabelRef(body))
		Label(rl)
		head()
		if two {
			twoGapBlocks()
		} else {
			left := Load(Param("left"), gp())
			ADDQ(b, left)
			gapBlocks(left, false, false)
		}
		Label(body)
		tail()
		{
			mEnd := Load(Param("mid"), gp())
			left := Load(Param("left"), gp())
			ADDQ(b, mEnd)
			ADDQ(left, mEnd)
			SUBQ(U8(64), mEnd) // the last p of a copy block
			loop, done := newLabel("aligned_copy"), newLabel("aligned_copy_done")
			CMPQ(p, mEnd)
			JGT(LabelRef(done))
			// Aligned loads too (shiftedSrc): the row's bytes are at
			// dCur from p.
			src := newShiftedSrc(dCur, ziota)
			Label(loop)
			a.storeAligned(src.block(p, 0), at(p, 0))
			ADDQ(U8(64), p)
			CMPQ(p, mEnd)
			JLE(LabelRef(loop))
			Label(done)
		}
		// The next boundary.
		MOVQ(dCur, dPrev)
		width := Load(Param("width"), gp())
		ADDQ(width, b)
		ss := Load(Param("srcStride"), gp())
		if !fixed {
			ADDQ(ss, s)
		}
		SUBQ(width, dCur)
		ADDQ(ss, dCur)
		DECQ(rc)
		JNZ(LabelRef(rl))
	}

	pl := newLabel("aligned_planes")

	Label(pl)
	{
		MOVQ(f.d0, b)
		MOVQ(f.s0, s)
		rows := Load(Param("rows"), gp())
		width := Load(Param("width"), gp())
		IMULQ(width, rows)
		ADDQ(b, rows)
		MOVQ(rows, f.end)
		bottom := Load(Param("bottom"), gp())
		ADDQ(rows, bottom)
		MOVQ(bottom, f.hi)
		lo := Load(Param("top"), gp())
		NEGQ(lo)
		ADDQ(b, lo)
		MOVQ(lo, f.lo)
		MOVQ(lo, p)
		ANDQ(I32(-64), p)
		left := Load(Param("left"), gp())
		MOVQ(s, dCur)
		SUBQ(b, dCur)
		SUBQ(left, dCur)
		if !fixed {
			VMOVDQU64(zpat, T)
		}
		// Block byte j is pattern byte (j+p-dst)%32: rows start a
		// multiple of the period from dst, and so do the pads.
		sh := gp()
		MOVQ(p, sh)
		SUBQ(b, sh)
		byteRamp(sh, ziota, zp)
		VPERMB(zpat, zp, zp)
	}
	// The top pad: the pattern blocks that end by the first row.
	{
		loop, done := newLabel("aligned_top"), newLabel("aligned_top_done")
		e := gp()
		LEAQ(at(p, 64), e)
		CMPQ(e, b)
		JA(LabelRef(done))
		CMPQ(p, f.lo)
		JAE(LabelRef(loop))
		clippedStore(zp, p) // a first block that starts below the pad
		ADDQ(U8(64), p)
		Label(loop)
		LEAQ(at(p, 64), e)
		CMPQ(e, b)
		JA(LabelRef(done))
		a.storeAligned(zp, at(p, 0))
		ADDQ(U8(64), p)
		JMP(LabelRef(loop))
		Label(done)
	}
	// The first boundary: the blocks below dst+max(left, 1), so that a
	// block starting below dst is made here even when left is 0.
	head()
	{
		g := gp()
		MOVQ(f.left1, g)
		ADDQ(b, g)
		gapBlocks(g, true, false)
	}
	Load(Param("rows"), rc)
	last := newLabel("aligned_last")
	general := newLabel("aligned_general")
	CMPQ(f.twoGaps, U8(0))
	JE(LabelRef(general))
	rowLoop(true)
	JMP(LabelRef(last))
	Label(general)
	rowLoop(false)
	Label(last)
	// The last boundary: the blocks below the end, whose bytes from the
	// end on are the bottom pad's (the pattern, H's in windows).
	if !fixed {
		VMOVDQU64(zpat, H)
	}
	{
		e := gp()
		MOVQ(f.end, e)
		gapBlocks(e, false, true)
	}
	// The bottom pad: whole pattern blocks, then one masked at its end.
	{
		loop, done := newLabel("aligned_bottom"), newLabel("aligned_bottom_done")
		e := gp()
		Label(loop)
		LEAQ(at(p, 64), e)
		CMPQ(e, f.hi)
		JA(LabelRef(done))
		a.storeAligned(zp, at(p, 0))
		ADDQ(U8(64), p)
		JMP(LabelRef(loop))
		Label(done)
		skip := newLabel("aligned_bottom_end")
		CMPQ(p, f.hi)
		JAE(LabelRef(skip))
		clippedStore(zp, p)
		Label(skip)
	}
	{
		x := Load(Param("dstPlane"), gp())
		ADDQ(x, f.d0)
		y := Load(Param("srcPlane"), gp())
		ADDQ(y, f.s0)
	}
	DECQ(f.planes)
	JNZ(LabelRef(pl))
	VZEROUPPER()
}
