package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The shapes of a narrow table (shuffle.go: narrowShuffle): how the kernel
// loads a row's input and how many bytes a store writes.
const (
	narrowC16O16 = iota // two 16-byte pieces in a YMM, two 16-byte stores
	narrowC16O32        // two 16-byte pieces in a YMM, two 32-byte stores
	narrowC8O16         // two 8-byte pieces in both lanes, two 16-byte stores
	narrowC8O8          // two 8-byte pieces in an XMM, two 8-byte stores
	narrowC4O8          // two 4-byte pieces in an XMM, two 8-byte stores
	narrowD16O16        // C16O16 by a word permutation
	narrowD16O32        // C16O32 by word permutations
	narrowC8O32         // two 8-byte pieces in both lanes, two 32-byte stores
	narrowC4O32         // two 4-byte pieces in both lanes, two 32-byte stores
	narrowC4O16         // two 4-byte pieces in both lanes, two 16-byte stores
)

// genRowsShuffleNarrow emits rowsShuffleNarrowAVX2: the shuffle kernel of
// CPUs without VBMI for rows narrower than the word kernel's (input rows of
// 4 to 32 bytes, output rows of 8 to 64: the 7x7 to 28x28 planes of
// convolutional networks in bytes, int16 and float32). A row's input is
// loaded as its first and its last H bytes (H = 16, 8 or 4: every byte of
// it, none past it): 16-byte pieces each into both lanes of a register,
// shorter ones side by side; each output block (two per row, the first at
// the row's start, the second ending at its end, overlapping when the row
// is narrower than two blocks) is a VPSHUFB of each 16-byte piece ORed, one
// VPSHUFB of shorter ones, or one VPERMD of rows in 4-byte words, blended
// with the value; the two halves of a YMM result are the two blocks of rows
// of up to 32 bytes. Every store is whole and inside its row, and every row
// is 6 to 12 instructions (rows that take no value skip the blend). At this
// level the shuffles bound the kernel, not its loads or stores.
func genRowsShuffleNarrow() {
	name := "rowsShuffleNarrowAVX2"
	kernel(name, "func(dst, src *byte, rows, dstStride, srcStride int, tab *[224]byte, pat *[32]byte, planes, dstPlane, srcPlane int, rowIdx *int32, run0, run1 int)",
		name+" pads narrow rows by a narrowShuffle table (shuffle.go): for",
		"planes p and rows r, with d = dst[p*dstPlane+r*dstStride:] and",
		"s = src[p*srcPlane+rowIdx[r]*srcStride:] (r*srcStride if rowIdx is nil),",
		"the pieces are s[0:H] and s[hi:hi+H] (H = 16, 8 or 4 by the table's",
		"shape, hi at tab[8]), and the two blocks of the row, at d[0:B] and",
		"d[tail:tail+B] (B = 32, 16 or 8, tail at tab[16]), take byte k from",
		"the pieces where bit 7 of m[k] is set, else pat[k%32]: with 16-byte",
		"pieces, pick(first, a[k]) | pick(last, b[k]), pick(p, x) being 0 if",
		"bit 7 of x is set, else p[x&15] (VPSHUFB), and where bit 7 of m[k]",
		"is clear, bit 7 of a[k] and b[k] is set; with 8- or 4-byte pieces,",
		"byte a[k]&15 of the two side by side; in the word shapes (D16O16,",
		"D16O32), word a[k] (a 4-byte index, k a multiple of 4) of the two",
		"16-byte pieces side by side (VPERMD). When tab[4] (full) is not 0,",
		"every m[k] has bit 7 set: no byte takes the value, and the kernel does",
		"not blend.",
		"Rows run0 to run1-1",
		listRunDoc,
		"",
		"It reads s[0:H] and s[hi:hi+H] only, writes d[0:B] and",
		"d[tail:tail+B] only; rows, planes >= 1. It requires AVX2.")
	tab, ypat, loops := avx2ShuffleArgs("shufn")
	hi, tail := gp(), gp()
	MOVQ(at(tab, 8), hi)
	MOVQ(at(tab, 16), tail)
	const aOff, bOff, mOff = 32, 96, 160 // [2][32]byte each: a block's a, b and m

	// composite16 loads the two 16-byte pieces of a row into w's lanes;
	// composite8 and composite4 the two 8- or 4-byte pieces into w's low
	// lane, side by side.
	composite16 := func(row reg.GPVirtual, w reg.VecVirtual) {
		VMOVDQU(at(row, 0), w.AsX())
		VINSERTI128(U8(1), Mem{Base: row, Index: hi, Scale: 1}, w, w)
	}
	composite8 := func(row reg.GPVirtual, x reg.Register) {
		VMOVQ(at(row, 0), x)
		VPINSRQ(U8(1), Mem{Base: row, Index: hi, Scale: 1}, x, x)
	}
	composite4 := func(row reg.GPVirtual, x reg.Register) {
		VMOVD(at(row, 0), x)
		VPINSRD(U8(1), Mem{Base: row, Index: hi, Scale: 1}, x, x)
	}
	// stores16 writes a YMM's lanes as the row's two 16-byte blocks,
	// stores8 an XMM's halves as its two 8-byte blocks.
	stores16 := func(dr reg.GPVirtual, y reg.VecVirtual) {
		VMOVDQU(y.AsX(), at(dr, 0))
		VEXTRACTI128(U8(1), y, Mem{Base: dr, Index: tail, Scale: 1})
	}
	stores8 := func(dr reg.GPVirtual, x reg.VecVirtual) {
		VMOVQ(x, at(dr, 0))
		VPEXTRQ(U8(1), x, Mem{Base: dr, Index: tail, Scale: 1})
	}

	labels := []string{newLabel("shufn_c16o32"), newLabel("shufn_c8o16"), newLabel("shufn_c8o8"), newLabel("shufn_c4o8"),
		newLabel("shufn_d16o16"), newLabel("shufn_d16o32"), newLabel("shufn_c8o32"), newLabel("shufn_c4o32"), newLabel("shufn_c4o16")}
	for i, l := range labels {
		CMPL(at(tab, 0), U8(i+1))
		JE(LabelRef(l))
	}

	// Each shape has two loops: rows that take the value blend it in,
	// rows whose every byte comes from src (tab[4], full: edge, mirrored
	// and wrapped rows) skip the blend, which took 9-13% of the time of
	// C16O32 rows at this level, and the mask's registers.
	shape := func(label string, loop func(full bool)) {
		if label != "" {
			Label(label)
		}
		byFull(tab, name, loop)
	}
	// blend takes into x the value where the mask (m) says so.
	blend := func(full bool, m, x, pat reg.Register) {
		if !full {
			VPBLENDVB(m, x, pat, x) // the taken bytes (the mask's sign) from x, the others the value
		}
	}
	// mask loads a mask of the table for a loop that blends.
	mask := func(full bool, off int, v reg.VecVirtual) reg.VecVirtual {
		if !full {
			VMOVDQU(at(tab, off), v)
		}
		return v
	}

	// pieces16 loads the two 16-byte pieces of a row, each into both
	// lanes of a register (VBROADCASTI128: a load, no shuffle), so that a
	// result byte in either lane takes from either piece by one VPSHUFB
	// of each: the kernel is bound by its shuffles at this level, and a
	// lane insert and a lane swap took two more a row.
	pieces16 := func(row reg.GPVirtual) (first, last reg.VecVirtual) {
		first, last = YMM(), YMM()
		VBROADCASTI128(at(row, 0), first)
		VBROADCASTI128(Mem{Base: row, Index: hi, Scale: 1}, last)
		return first, last
	}

	// C16O16: one result, its lanes the two blocks.
	shape("", func(full bool) {
		a, b := YMM(), YMM()
		VMOVDQU(at(tab, aOff), a)
		VMOVDQU(at(tab, bOff), b)
		m := mask(full, mOff, YMM())
		loops(func(dr, row reg.GPVirtual) {
			first, last := pieces16(row)
			VPSHUFB(a, first, first)
			VPSHUFB(b, last, last)
			VPOR(first, last, first)
			blend(full, m, first, ypat)
			stores16(dr, first)
		})
	})
	// C16O32: a result a block. Its four index vectors stay in registers;
	// the listed rows' registers leave too few YMM registers for the two
	// masks and the pattern as well (VEX encodings reach only the first
	// 16), so rows that take the value OR in the value's bytes, made at
	// the start (the pattern where the mask is clear) and kept on the
	// stack: the shuffles give 0 there (both indexes have bit 7 set). With
	// the indexes loaded from memory by every shuffle, four loads a row,
	// uint8 28x28 planes padded by 3 (34-byte rows) took 1.5-1.6x the
	// time.
	shape(labels[0], func(full bool) {
		var a, b [2]reg.VecVirtual
		var value [2]Mem
		for k := range 2 {
			a[k], b[k] = YMM(), YMM()
			VMOVDQU(at(tab, aOff+32*k), a[k])
			VMOVDQU(at(tab, bOff+32*k), b[k])
			if !full {
				v := YMM()
				VMOVDQU(at(tab, mOff+32*k), v)
				VPANDN(ypat, v, v)
				value[k] = AllocLocal(32)
				VMOVDQU(v, value[k])
			}
		}
		loops(func(dr, row reg.GPVirtual) {
			first, last := pieces16(row)
			for k, out := range []Mem{at(dr, 0), {Base: dr, Index: tail, Scale: 1}} {
				x, y := YMM(), YMM()
				VPSHUFB(a[k], first, x)
				VPSHUFB(b[k], last, y)
				VPOR(x, y, x)
				if !full {
					VPOR(value[k], x, x)
				}
				VMOVDQU(x, out)
			}
		})
	})
	// oneResult emits a shape whose row is one result, its halves or
	// lanes the two blocks: result permutes the row's pieces by a (the
	// table's first indexes, in a vector of vec), then the value is
	// blended in and store writes the blocks.
	oneResult := func(label string, vec func() reg.VecVirtual, pat reg.Register, result func(row reg.GPVirtual, a reg.VecVirtual) reg.VecVirtual, store func(dr reg.GPVirtual, w reg.VecVirtual)) {
		shape(label, func(full bool) {
			a := vec()
			VMOVDQU(at(tab, aOff), a)
			m := mask(full, mOff, vec())
			loops(func(dr, row reg.GPVirtual) {
				w := result(row, a)
				blend(full, m, w, pat)
				store(dr, w)
			})
		})
	}
	// bothLanes loads a row's pieces by composite (8- or 4-byte pieces
	// side by side) into both lanes of a YMM.
	bothLanes := func(composite func(reg.GPVirtual, reg.Register)) func(row reg.GPVirtual) reg.VecVirtual {
		return func(row reg.GPVirtual) reg.VecVirtual {
			w := YMM()
			composite(row, w.AsX())
			VINSERTI128(U8(1), w.AsX(), w, w)
			return w
		}
	}
	// C8O16 and C4O16: the pieces in both lanes, one shuffle.
	for _, c := range []struct {
		label     int
		composite func(reg.GPVirtual, reg.Register)
	}{{1, composite8}, {8, composite4}} {
		load := bothLanes(c.composite)
		oneResult(labels[c.label], YMM, ypat, func(row reg.GPVirtual, a reg.VecVirtual) reg.VecVirtual {
			w := load(row)
			VPSHUFB(a, w, w)
			return w
		}, stores16)
	}
	// D16O16: rows in words, a result of two blocks one VPERMD of w by
	// a's words.
	oneResult(labels[4], YMM, ypat, func(row reg.GPVirtual, a reg.VecVirtual) reg.VecVirtual {
		w := YMM()
		composite16(row, w)
		VPERMD(w, a, w)
		return w
	}, stores16)
	// twoBlocks emits a shape whose row is two results of 32 bytes, each
	// op of the row's pieces (load) by its block's indexes, blended with
	// the value.
	twoBlocks := func(label string, load func(row reg.GPVirtual) reg.VecVirtual, op func(a, w, x reg.VecVirtual)) {
		shape(label, func(full bool) {
			var a, m [2]reg.VecVirtual
			for k := range 2 {
				a[k] = YMM()
				VMOVDQU(at(tab, aOff+32*k), a[k])
				m[k] = mask(full, mOff+32*k, YMM())
			}
			loops(func(dr, row reg.GPVirtual) {
				w := load(row)
				for k, out := range []Mem{at(dr, 0), {Base: dr, Index: tail, Scale: 1}} {
					x := YMM()
					op(a[k], w, x)
					blend(full, m[k], x, ypat)
					VMOVDQU(x, out)
				}
			})
		})
	}
	// D16O32: a block one VPERMD of the 16-byte pieces by its words.
	twoBlocks(labels[5], func(row reg.GPVirtual) reg.VecVirtual {
		w := YMM()
		composite16(row, w)
		return w
	}, func(a, w, x reg.VecVirtual) { VPERMD(w, a, x) })
	// C8O32 and C4O32: a block one VPSHUFB of the pieces in both lanes.
	for _, c := range []struct {
		label     int
		composite func(reg.GPVirtual, reg.Register)
	}{{6, composite8}, {7, composite4}} {
		twoBlocks(labels[c.label], bothLanes(c.composite), func(a, w, x reg.VecVirtual) { VPSHUFB(a, w, x) })
	}
	// C8O8 and C4O8: one XMM shuffle, its halves the two blocks.
	for k, composite := range []func(reg.GPVirtual, reg.Register){composite8, composite4} {
		oneResult(labels[2+k], XMM, ypat.AsX(), func(row reg.GPVirtual, a reg.VecVirtual) reg.VecVirtual {
			x := XMM()
			composite(row, x)
			VPSHUFB(a, x, x)
			return x
		}, stores8)
	}
}
