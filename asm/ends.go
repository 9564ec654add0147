package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// endsWideMin is the narrowest row whose ends go out as 32-byte stores. On
// a Zen 5, in L1, rows of 200 to 416 bytes took 0.86-0.89x the time that
// way, rows of 100 to 168 the same, rows of 88 bytes 1.23x (the inserts
// and loads cost more than the store they save).
const endsWideMin = 192

// genRowsEnds emits rowsEndsAVX2: rows whose pads are at most 16 bytes on
// each side, in any mode, for CPUs without AVX-512 VBMI. A row is its
// middle, a copy of the src row by 32-byte vectors, then its first and
// last 16 bytes, each the OR of two VPSHUFB (of the first and of the last
// 16 bytes of the src row, where the pads of every mode read) blended with
// the value by VPBLENDVB. From endsWideMin bytes on, each end goes out as
// one 32-byte store with the 16 bytes of the middle beside it, which saves
// a store a row. The six table vectors and the value stay in registers;
// the width picks one of four row loops per call.
func genRowsEnds() {
	name := "rowsEndsAVX2"
	kernel(name, "func(dst, src *byte, rows, dstStride, srcStride, width, mid, left int, tab *[96]byte, pat *[32]byte, planes, dstPlane, srcPlane int)",
		name+" pads rows of width bytes from src rows of mid >= 32 bytes,",
		"left <= 16 and width-left-mid <= 16: for planes p and rows r, with",
		"d = dst[p*dstPlane+r*dstStride:] and s = src[p*srcPlane+r*srcStride:],",
		"d[i] = s[i-left] for 16 <= i < width-16, and the first and the last 16",
		"bytes of d from the windows a = s[0:16] and b = s[mid-16:mid] by tab",
		"(an endsTable): byte i of an end e (e = tab[0:48] for the head, tab[48:96]",
		"for the tail) is pick(a, e[i]) | pick(b, e[16+i]) where bit 7 of",
		"e[32+i] is set, else pat[i]; pick(w, x) is 0 if bit 7 of x is set,",
		"else w[x&15] (VPSHUFB). pat's period divides 16 and the width. It",
		"reads s[0:mid] only; strides are >= 0.",
		"",
		"It requires AVX2.")
	ret := newLabel("ends_ret")
	skipEmpty(ret)

	ends, pat, d0, s0, tail := endsSetup(6, XMM) // ends: head a, b, mask; tail a, b, mask

	bOff := Load(Param("mid"), gp()) // the window b's offset in s: mid-16
	SUBQ(U8(16), bOff)
	mOff := Load(Param("left"), gp()) // the middle's source, from s: 16-left
	NEGQ(mOff)
	ADDQ(U8(16), mOff)

	// rowLoops emits the loops over planes and rows around the row whose
	// middle middle makes, from src sm (s[16-left:]) to dst d. With wide
	// ends, the head and the tail are 32 bytes, each one store: the 16
	// bytes of the end beside the 16 of the middle next to it.
	rowLoops := func(wide bool, middle func(d, sm reg.Register)) {
		endsLoops("ends", d0, s0, func(d, s reg.Register) {
			a, b := XMM(), XMM()
			VMOVDQU(at(s, 0), a)
			VMOVDQU(ati(s, bOff, 0), b)
			sm := gp()
			LEAQ(ati(s, mOff, 0), sm)
			middle(d, sm)
			for half, off := range []Op{at(d, 0), ati(d, tail, 0)} {
				e := ends[3*half:]
				x, y := XMM(), XMM()
				VPSHUFB(e[0], a, x)
				VPSHUFB(e[1], b, y)
				VPOR(x, y, x)
				VPBLENDVB(e[2], x, pat, x) // the taken bytes (the mask's sign) from x, the others the value
				switch {
				case !wide:
					VMOVDQU(x, off)
				case half == 0: // d[16:32] is s[16-left:32-left]
					w := YMM()
					VINSERTI128(U8(1), at(sm, 0), x.AsY(), w)
					VMOVDQU(w, at(d, 0))
				default: // d[width-32:width-16] is s[width-32-left:width-16-left]
					w := XMM()
					VMOVDQU(ati(sm, tail, -32), w)
					VINSERTI128(U8(1), x, w.AsY(), w.AsY())
					VMOVDQU(w.AsY(), ati(d, tail, -16))
				}
			}
		})
	}

	last := gp() // the middle's last vector, from d+32: its length less 32
	LEAQ(at(tail, -80), last)
	// middleVectors makes the middle from d+at (s[at-left:] is at sm+at-16)
	// by 32-byte vectors from its start, the last one at last.
	middleVectors := func(at int) func(d, sm reg.Register) {
		return func(d, sm reg.Register) {
			i, y := gp(), YMM()
			loop := newLabel("ends_mid")
			XORQ(i, i)
			Label(loop)
			VMOVDQU(ati(sm, i, at-16), y)
			VMOVDQU(y, ati(d, i, at))
			ADDQ(U8(32), i)
			CMPQ(i, last)
			JB(LabelRef(loop))
			VMOVDQU(ati(sm, last, at-16), y)
			VMOVDQU(y, ati(d, last, at))
		}
	}
	narrow, short, tiny := newLabel("ends_narrow"), newLabel("ends_short"), newLabel("ends_tiny")
	CMPQ(tail, U32(endsWideMin-16))
	JB(LabelRef(narrow))
	// Rows of endsWideMin bytes or more: 32-byte ends, and the middle
	// between them by vectors from its start, the last one ending at its
	// end.
	rowLoops(true, middleVectors(32))
	Label(narrow)
	ADDQ(U8(32), last) // the middle's last vector, from d+16: width-64
	CMPQ(last, U8(0))
	JL(LabelRef(short))
	// 64 bytes up to endsWideMin: 16-byte ends, and the middle between
	// them by 32-byte vectors from its start, the last one ending at its
	// end.
	rowLoops(false, middleVectors(16))
	Label(short)
	ADDQ(U8(16), last) // the middle's length from d+16 less 16, width-48
	CMPQ(last, U8(0))
	JLE(LabelRef(tiny))
	// 49 to 63 bytes whose middle reaches d[48] (left+mid >= 48: mid-16
	// is at least 16 past 16-left): 16-byte ends and one 32-byte vector,
	// three stores a row where two 16-byte vectors make four, which took
	// 1.16x the time on uint8 rows of 58 bytes.
	halves := newLabel("ends_halves")
	reach := gp()
	MOVQ(bOff, reach)
	SUBQ(mOff, reach)
	CMPQ(reach, U8(16))
	JL(LabelRef(halves))
	rowLoops(false, func(d, sm reg.Register) {
		y := YMM()
		VMOVDQU(at(sm, 0), y)
		VMOVDQU(y, at(d, 16))
	})
	Label(halves)
	// 49 to 63 bytes: 16-byte ends and two 16-byte vectors.
	rowLoops(false, func(d, sm reg.Register) {
		x := XMM()
		VMOVDQU(at(sm, 0), x)
		VMOVDQU(x, at(d, 16))
		VMOVDQU(ati(sm, last, 0), x)
		VMOVDQU(x, ati(d, last, 16))
	})
	Label(tiny)
	// At most 48 bytes: one vector from the middle's start, which the
	// tail then overwrites past the middle (width >= 32, mid >= 32: it
	// stays in the row and in s[0:mid]).
	rowLoops(false, func(d, sm reg.Register) {
		x := XMM()
		VMOVDQU(at(sm, 0), x)
		VMOVDQU(x, at(d, 16))
	})
	Label(ret)
	RET()
}

// genRowsEndsWords emits rowsEndsWordsAVX2: rows whose pads are at most 32
// bytes on each side, of elements of 4 bytes or more, in any mode, for CPUs
// without AVX-512 VBMI. A row is a copy of the src row by 32-byte vectors,
// then its first and last 32 bytes, each a VPERMD of the first and one of
// the last 32 bytes of the src row (where the pads of every mode read), the
// two joined and blended with the value by VPBLENDVB on the index vectors'
// sign bits. The four table vectors and the value stay in registers.
func genRowsEndsWords() {
	name := "rowsEndsWordsAVX2"
	kernel(name, "func(dst, src *byte, rows, dstStride, srcStride, width, mid, left, aAt, bBefore int, tab *[128]byte, pat *[32]byte, planes, dstPlane, srcPlane int)",
		name+" pads rows of width bytes from src rows of mid >= 32 bytes,",
		"left <= 32 and width-left-mid <= 32: for planes p and rows r,",
		"with d = dst[p*dstPlane+r*dstStride:] and s = src[p*srcPlane+r*srcStride:],",
		"d[left:left+mid] = s[0:mid], then the first and the last 32 bytes of d",
		"(in that order: they may overlap) from the windows a = s[aAt:aAt+32] and",
		"b = s[mid-32-bBefore:mid-bBefore] (aAt, bBefore <= mid-32) by tab",
		"(endsWordsTable.idx): with x and y the a and b index vectors of an end",
		"(tab[0:32] and tab[32:64] for the head, tab[64:96] and tab[96:128] for",
		"the tail), byte i of the end is byte i%4 of dword y[4*(i/4)]&7 of",
		"b where bit 7 of y[i] is set, else of dword x[4*(i/4)]&7 of a, where",
		"bit 7 of x[i] is set, else pat[i]. pat's period divides 32 and the",
		"width. It reads s[0:mid] only; strides are >= 0.",
		"",
		"It requires AVX2.")
	ret := newLabel("endsw_ret")
	skipEmpty(ret)

	ends, pat, d0, s0, tail := endsSetup(4, YMM) // ends: head a, b; tail a, b

	last := Load(Param("mid"), gp()) // the copy's last vector's offset in s: mid-32
	SUBQ(U8(32), last)
	bOff := Load(Param("bBefore"), gp()) // the window b's offset in s: mid-32-bBefore
	NEGQ(bOff)
	ADDQ(last, bOff)
	aOff := Load(Param("aAt"), gp())
	left := Load(Param("left"), gp())

	endsLoops("endsw", d0, s0, func(d, s reg.Register) {
		a, b := YMM(), YMM()
		VMOVDQU(ati(s, aOff, 0), a)
		VMOVDQU(ati(s, bOff, 0), b)
		// The copy of the whole src row, d[left:left+mid], by vectors from its
		// start, the last one ending at its end; the ends then overwrite its
		// first and last bytes. Copying only d[32:width-32] (from s[32-left:])
		// took as long: 0.84x the rows kernels' time against 0.84x, geometric
		// means over 162 geometries, by alignment either way up to 1.1x.
		dl, i, y := gp(), gp(), YMM()
		LEAQ(ati(d, left, 0), dl)
		XORQ(i, i)
		copies := newLabel("endsw_copy")
		Label(copies)
		VMOVDQU(ati(s, i, 0), y)
		VMOVDQU(y, ati(dl, i, 0))
		ADDQ(U8(32), i)
		CMPQ(i, last)
		JB(LabelRef(copies))
		VMOVDQU(ati(s, last, 0), y)
		VMOVDQU(y, ati(dl, last, 0))
		for half, off := range []Op{at(d, 0), ati(d, tail, 0)} {
			e := ends[2*half:]
			x, y := YMM(), YMM()
			VPERMD(a, e[0], x)
			VPERMD(b, e[1], y)
			VPBLENDVB(e[1], y, x, x)   // the bytes of b where the b index's sign is set
			VPBLENDVB(e[0], x, pat, x) // the taken bytes (the a index's sign) from x, the others the value
			VMOVDQU(x, off)
		}
	})
	Label(ret)
	RET()
}

// skipEmpty jumps to ret if the call has no rows or no planes.
func skipEmpty(ret string) {
	CMPQ(paramMem("rows"), U8(0))
	JE(LabelRef(ret))
	CMPQ(paramMem("planes"), U8(0))
	JE(LabelRef(ret))
}

// endsSetup loads an ends kernel's n table vectors (from vec: XMM or YMM,
// of W bytes) and its value, and returns them with dst, src and the
// tail's offset in a row, width-W.
func endsSetup(n int, vec func() reg.VecVirtual) (ends []reg.VecVirtual, pat reg.VecVirtual, d0, s0, tail reg.Register) {
	tab := Load(Param("tab"), gp())
	ends = make([]reg.VecVirtual, n)
	for i := range ends {
		ends[i] = vec()
		VMOVDQU(at(tab, int(ends[i].Size())*i), ends[i])
	}
	pat = vec()
	VMOVDQU(at(Load(Param("pat"), gp()), 0), pat)
	d0 = Load(Param("dst"), gp())
	s0 = Load(Param("src"), gp())
	tail = Load(Param("width"), gp())
	SUBQ(U8(ends[0].Size()), tail)
	return ends, pat, d0, s0, tail
}

// endsLoops emits an ends kernel's loops over planes and rows, and its
// return: row makes the row at dst d and src s, which then step by the
// strides (labels from prefix).
func endsLoops(prefix string, d0, s0 reg.Register, row func(d, s reg.Register)) {
	planes, rows := newLabel(prefix+"_planes"), newLabel(prefix+"_rows")
	d, s, n := gp(), gp(), gp()
	Label(planes)
	MOVQ(d0, d)
	MOVQ(s0, s)
	MOVQ(paramMem("rows"), n)
	Label(rows)
	row(d, s)
	ADDQ(paramMem("dstStride"), d)
	ADDQ(paramMem("srcStride"), s)
	DECQ(n)
	JNZ(LabelRef(rows))
	ADDQ(paramMem("dstPlane"), d0)
	ADDQ(paramMem("srcPlane"), s0)
	DECQ(paramMem("planes"))
	JNZ(LabelRef(planes))
	VZEROUPPER()
	RET()
}
