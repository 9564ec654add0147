package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// genRowsShuffle emits rowsShuffleAVX512: narrow rows (at most 128 bytes in
// and out) of any form, each built in registers and written by at most two
// stores. The table holds, for every output byte, the byte of the src row
// it takes (a VPERMI2B index into the row's first 128 bytes) and whether it
// takes the value instead: an edge, mirrored or wrapped row is one
// permutation of its input row, a constant row a permutation blended with
// the pattern. Row-by-row kernels store each piece of such rows
// separately (a 64-byte row of case c took four stores); here each 64
// bytes of output is one store.
func genRowsShuffle() {
	name := "rowsShuffleAVX512"
	kernel(name, "func(dst, src *byte, rows, dstStride, srcStride, width, mid int, tab *[144]byte, pat *[32]byte, planes, dstPlane, srcPlane int, rowIdx *int32, run0, run1 int, srcLimit uintptr)",
		name+" pads narrow rows by a byte table: row r of dst (at r*dstStride)",
		"gets width bytes, byte i taken from byte tab[i] of row r of src (at",
		"r*srcStride) where bit i of the little-endian uint64s at tab[128:144] is",
		"set, and pat[i%32] where it is clear. width and mid are at most 128,",
		"and every taken index is below mid. A src row at an address up to",
		"srcLimit is read as a whole window of 64 bytes from its start (128",
		"when mid > 64), which must be mapped memory (the caller's srcLimit,",
		"shuffleLoadLimit); a row above srcLimit is read as the 64 bytes that",
		"end at its last byte (after its first 64 when mid > 64), which lie in",
		"that byte's page, and rotated into place (whole loads: a masked load",
		"made the kernel 1.2x as slow on suite case c's 56-byte rows, and one",
		"whose masked bytes lie in a page that is not present costs a",
		"microcode assist of about 190 ns on a Zen 5):",
		"",
		"The rows repeat for planes planes, plane p at p*dstPlane and p*srcPlane;",
		"when rowIdx is not nil, row r takes src row rowIdx[r] (at",
		"rowIdx[r]*srcStride) instead of row r, so that a plane's rows, its",
		"edge or mirrored pad rows included, are one pass. Rows run0 to run1-1",
		listRunDoc,
		"",
		"\tfor p := 0; p < planes; p++ {\n\t\tfor r := 0; r < rows; r++ {\n\t\t\td := dst[p*dstPlane+r*dstStride:]\n\t\t\ts := src[p*srcPlane+rowIdx[r]*srcStride:] // r*srcStride if rowIdx is nil\n\t\t\tfor i := 0; i < width; i++ {\n\t\t\t\tif take(i) {\n\t\t\t\t\td[i] = s[tab[i]]\n\t\t\t\t} else {\n\t\t\t\t\td[i] = pat[i%32]\n\t\t\t\t}\n\t\t\t}\n\t\t}\n\t}",
		"",
		"It requires AVX-512 F, BW and VBMI.")
	d := Load(Param("dst"), gp())
	s := Load(Param("src"), gp())
	rows := Load(Param("rows"), gp())
	ds := Load(Param("dstStride"), gp())
	ss := Load(Param("srcStride"), gp())
	width := Load(Param("width"), gp())
	mid := Load(Param("mid"), gp())
	tab := Load(Param("tab"), gp())
	pat := Load(Param("pat"), gp())
	planes := Load(Param("planes"), gp())

	ret := newLabel("shuf_ret")
	TESTQ(rows, rows)
	JZ(LabelRef(ret))
	TESTQ(planes, planes)
	JZ(LabelRef(ret))

	// Masks of the first and second 64 bytes of the src row and the dst row.
	tbl := gp()
	LEAQ(maskTable, tbl)
	halves := func(n reg.Register) (lo, hi reg.OpmaskVirtual) {
		a, b := gp(), gp()
		MOVQ(U32(64), a)
		CMPQ(n, a)
		CMOVQLT(n, a) // a = min(n, 64)
		MOVQ(n, b)
		SUBQ(a, b) // b = n - a
		lo, hi = kreg(), kreg()
		KMOVQ(Mem{Base: tbl, Index: a, Scale: 8}, lo)
		KMOVQ(Mem{Base: tbl, Index: b, Scale: 8}, hi)
		return lo, hi
	}
	dLo, dHi := halves(width)
	take0, take1 := kreg(), kreg()
	KMOVQ(at(tab, 128), take0)
	KMOVQ(at(tab, 136), take1)
	idx0, idx1, zpat := ZMM(), ZMM(), ZMM()
	VMOVDQU64(at(tab, 0), idx0)
	VMOVDQU64(at(tab, 64), idx1)
	VBROADCASTI64X4(at(pat, 0), zpat)

	// The src offsets of the listed rows before and after the run, built
	// once per call (loadListOffsets).
	listOffsets := AllocLocal(128)

	// The store limits: a row's masked store at offset 0 (64) whose
	// window starts above dstLimits[0] ([8]) would reach past the page
	// of the call's last output byte, where a page that is not present
	// costs a microcode assist of about 190 ns (a Zen 5) even though the
	// store's mask leaves it alone. Such rows store the window that ends
	// at their last byte instead (chunk, in the call's last plane).
	dstLimits := AllocLocal(16)
	{
		last, t := gp(), gp()
		Load(Param("planes"), last)
		DECQ(last)
		Load(Param("dstPlane"), t)
		IMULQ(t, last)
		Load(Param("rows"), t)
		DECQ(t)
		IMULQ(ds, t)
		ADDQ(t, last)
		ADDQ(width, last)
		ADDQ(d, last)
		DECQ(last) // the last output byte
		ORQ(U32(4095), last)
		SUBQ(U8(63), last) // the page's end - 64
		MOVQ(last, dstLimits.Offset(0))
		SUBQ(U8(64), last)
		MOVQ(last, dstLimits.Offset(8))
	}

	// The plane loop's registers, loaded after the table so that the
	// setup's registers are free again.
	d0, s0 := gp(), gp()
	MOVQ(d, d0)
	MOVQ(s, s0)
	dp := Load(Param("dstPlane"), gp())
	sp := Load(Param("srcPlane"), gp())
	limit := Load(Param("srcLimit"), gp())

	var outOfLine []func() // blocks after the kernel's return
	// In the last plane of a call (planeWalks' last), the rows whose
	// masked store at offset storeDisp (-1: none) starts above
	// storeLimit store the window that ends at their last byte.
	var storeLimit reg.Register
	storeDisp := -1
	// A masked store of at most 16 or 32 bytes (storeBytes) writes an XMM
	// or a YMM register, and a row of at most 16 or 32 bytes in and out
	// loads by one (loadBytes; storeClasses sets both): on a Zen 5 a masked
	// store costs by its register's width, not its mask, and a ZMM store of
	// a narrow row crosses a line wherever the row does not start its line.
	storeBytes, loadBytes := 64, 64
	maskedStore := func(out reg.VecVirtual, k reg.Register, m Mem) {
		switch storeBytes {
		case 16:
			VMOVDQU8(out.AsX(), k, m)
		case 32:
			VMOVDQU8(out.AsY(), k, m)
		default:
			VMOVDQU8(out, k, m)
		}
	}

	// chunk makes output bytes [64c, 64c+64) of the row from the src row
	// (lo alone, or lo and hi) and stores them, under mask k or whole.
	chunk := func(lo, hi, idx reg.Register, take reg.OpmaskVirtual, k reg.Register, disp int) {
		out := ZMM()
		if hi == nil {
			// One table: 1 uop (VPERMI2B 3), merged into the pattern under
			// take, which saves the blend.
			VMOVDQA64(zpat, out)
			VPERMB(lo, idx, take, out)
		} else {
			p := ZMM()
			VMOVDQU64(idx, p)
			VPERMI2B(hi, lo, p)
			VPBLENDMB(p, zpat, take, out)
		}
		if k == nil {
			VMOVDQU64(out, at(d, disp))
			return
		}
		if storeLimit == nil {
			maskedStore(out, k, at(d, disp))
			return
		}
		far, back := newLabel("shuf_far"), newLabel("shuf_stored")
		CMPQ(d, storeLimit)
		JHI(LabelRef(far))
		maskedStore(out, k, at(d, disp))
		Label(back)
		outOfLine = append(outOfLine, func() {
			// The window that ends at the row's last byte (in that byte's
			// page): its lane j takes out[(j+n) mod 64], n = width-disp
			// bytes, and is stored where j+n >= 64, bit 7 of the index
			// iota+n+64 (VPERMB reads only bits 0-5).
			Label(far)
			t := gp()
			Load(Param("width"), t)
			ADDQ(U8(64-disp), t)
			rot, v := ZMM(), ZMM()
			byteRamp(t, iota64, rot)
			VPERMB(out, rot, v)
			kk := kreg()
			VPMOVB2M(rot, kk)
			VMOVDQU8(v, kk, Mem{Base: d, Index: t, Scale: 1, Disp: disp - 128})
			JMP(LabelRef(back))
		})
	}
	// loop runs body for every row of every plane and returns: rows at
	// srcStride from each other, or, when rowIdx is not nil, at the rows
	// it lists.
	loop := func(body func(checked bool)) {
		var last func(bool) // rows without a masked store need no last plane of their own
		if storeDisp >= 0 {
			last = func(on bool) {
				storeLimit = nil
				if on {
					storeLimit = gp()
					MOVQ(dstLimits.Offset(storeDisp/8), storeLimit)
				}
			}
		}
		planeWalks("shuf", d0, s0, dp, sp, planes, d, ss, s, limit, listOffsets, 8, body, func() { ADDQ(ds, d) }, last)
	}
	// storeClasses emits body's loop three times, for rows whose masked
	// store, of their bytes past the first base, takes at most 16 bytes,
	// at most 32 or more, each storing by its class's register; with base
	// 0 the classes take max(width, mid), and the loads the register too.
	// Uint8 planes of 10 to 30 columns padded by 1, int16 planes of 6,
	// float32 ones of 3 and float64 ones of 7 took 0.76-0.87x the time of
	// ZMM stores (KERNELS.md item 7).
	storeClasses := func(base int, body func(checked bool)) {
		x, y := newLabel("shuf_store16"), newLabel("shuf_store32")
		n := width
		if base == 0 {
			n = gp()
			MOVQ(width, n)
			CMPQ(mid, n)
			CMOVQGT(mid, n)
		}
		CMPQ(n, U8(base+16))
		JBE(LabelRef(x))
		CMPQ(n, U8(base+32))
		JBE(LabelRef(y))
		for _, class := range []int{64, 32, 16} {
			switch class {
			case 32:
				Label(y)
			case 16:
				Label(x)
			}
			storeBytes = class
			if base == 0 {
				loadBytes = class
			}
			loop(body)
		}
		storeBytes, loadBytes = 64, 64
	}
	// loadRow loads the src row's first 64 bytes (and the next 64 when
	// both): whole up to srcLimit, else from the window at its end, in a
	// block after the kernel's return (outOfLine), so that the loop runs
	// straight through.
	loadRow := func(both, checked bool) (lo, hi reg.VecVirtual) {
		lo = ZMM()
		if both {
			hi = ZMM()
		}
		// whole loads the row's window, or, for rows of at most 16 or 32
		// bytes in (storeClasses' loadBytes), the register that holds
		// them, by the VEX form: 0.87-0.95x the time on rows of 17 to 32
		// bytes, where the EVEX form (VMOVDQU64 of a YMM) took 1.2-1.4x.
		// The VEX form takes X0-Y15 only; Go's assembler rejects the
		// others, so an allocation there fails the build.
		whole := func() {
			switch {
			case both:
				VMOVDQU64(at(s, 0), lo)
				VMOVDQU64(at(s, 64), hi)
			case loadBytes == 16:
				VMOVDQU(at(s, 0), lo.AsX())
			case loadBytes == 32:
				VMOVDQU(at(s, 0), lo.AsY())
			default:
				VMOVDQU64(at(s, 0), lo)
			}
		}
		if !checked {
			whole()
			return lo, hi
		}
		masked, done := newLabel("shuf_masked"), newLabel("shuf_loaded")
		CMPQ(s, limit)
		JHI(LabelRef(masked))
		whole()
		Label(done)
		outOfLine = append(outOfLine, func() {
			// The window that ends at the row's last byte lies in that
			// byte's page (the row starts above srcLimit, within 64 or
			// 128 bytes of the page's end), rotated into place by the
			// index iota+64-mid (mod 64: both windows' offset). A masked
			// load past the page would have its masked bytes in the next
			// one, which costs a microcode assist of about 190 ns where
			// that page is not present (a Zen 5), at each such row.
			Label(masked)
			end := gp() // 64-mid, then the window's address
			Load(Param("mid"), end)
			NEGQ(end)
			ADDQ(U8(64), end)
			rot := ZMM()
			byteRamp(end, iota64, rot)
			NEGQ(end)
			LEAQ(Mem{Base: s, Index: end, Scale: 1}, end)
			if both {
				VMOVDQU64(at(s, 0), lo)
				VPERMB(at(end, 0), rot, hi)
			} else {
				VPERMB(at(end, 0), rot, lo)
			}
			JMP(LabelRef(done))
		})
		return lo, hi
	}
	oneTable, narrow, full := newLabel("shuf_one_table"), newLabel("shuf_narrow"), newLabel("shuf_full")
	CMPQ(mid, U8(64))
	JBE(LabelRef(oneTable))
	// mid 65..128: VPERMI2B over both halves of the src row.
	twoNarrow := newLabel("shuf_two_narrow")
	CMPQ(width, U8(64))
	JBE(LabelRef(twoNarrow))
	// When the first 64 output bytes take only src bytes below 64 and the
	// others only bytes from mid-64 on (every form but wrapped pieces and
	// crops), each half is one VPERMB of one 64-byte window of the row,
	// s[0:64] or s[mid-64:mid]: a VPERMI2B costs three uops, a VPERMB one.
	bothHalves := newLabel("shuf_both_halves")
	{
		m64 := gp()
		MOVQ(mid, m64)
		SUBQ(U8(64), m64)
		zm, z64 := ZMM(), ZMM()
		VPBROADCASTB(m64.As32(), zm)
		c := gp()
		MOVL(U32(64), c.As32())
		VPBROADCASTB(c.As32(), z64)
		k := kreg()
		VPCMPUB(U8(5), z64, idx0, take0, k) // taken head bytes at 64 or beyond
		KORTESTQ(k, k)
		JNZ(LabelRef(bothHalves))
		VPCMPUB(U8(1), zm, idx1, take1, k) // taken tail bytes below mid-64
		KANDQ(dHi, k, k)
		KORTESTQ(k, k)
		JNZ(LabelRef(bothHalves))
		idxT := ZMM()
		VPSUBB(zm, idx1, idxT)
		storeDisp = 64
		storeClasses(64, func(bool) {
			lo, hi := ZMM(), ZMM()
			VMOVDQU64(at(s, 0), lo) // mid > 64: both windows are inside the row
			VMOVDQU64(ati(s, m64, 0), hi)
			chunk(lo, nil, idx0, take0, nil, 0)
			chunk(hi, nil, idxT, take1, dHi, 64)
		})
	}
	Label(bothHalves)
	storeDisp = 64
	storeClasses(64, func(checked bool) { // 65..128 bytes: a whole first vector, a masked second
		lo, hi := loadRow(true, checked)
		chunk(lo, hi, idx0, take0, nil, 0)
		chunk(lo, hi, idx1, take1, dHi, 64)
	})
	Label(twoNarrow)
	storeDisp = 0
	loop(func(checked bool) { // 1..64 bytes
		lo, hi := loadRow(true, checked)
		chunk(lo, hi, idx0, take0, dLo, 0)
	})
	// mid 1..64: VPERMB over the first half.
	Label(oneTable)
	CMPQ(width, U8(64))
	JB(LabelRef(narrow))
	JE(LabelRef(full))
	storeDisp = 64
	storeClasses(64, func(checked bool) { // 65..128 bytes
		lo, _ := loadRow(false, checked)
		chunk(lo, nil, idx0, take0, nil, 0)
		chunk(lo, nil, idx1, take1, dHi, 64)
	})
	Label(narrow)
	storeDisp = 0
	storeClasses(0, func(checked bool) { // 1..63 bytes
		lo, _ := loadRow(false, checked)
		chunk(lo, nil, idx0, take0, dLo, 0)
	})
	Label(full)
	storeDisp = -1
	loop(func(checked bool) { // exactly 64 bytes
		lo, _ := loadRow(false, checked)
		chunk(lo, nil, idx0, take0, nil, 0)
	})
	Label(ret)
	RET()
	for _, block := range outOfLine {
		block()
	}
}

// genRowsShuffleDwords emits rowsShuffleDwordsAVX2: the shuffle kernel
// (rowsShuffleAVX512) for CPUs without VBMI, for rows whose elements are 4,
// 8 or 16 bytes: each 32-byte block of a row is one VPERMD of a 32-byte
// window of its src row, blended with the pattern. The blocks of a row end
// at its last byte (the last overlaps the one before it when the width is
// not a multiple of 32), so every store is whole and inside the row.
func genRowsShuffleDwords() {
	name := "rowsShuffleDwordsAVX2"
	kernel(name, "func(dst, src *byte, rows, dstStride, srcStride int, tab *[200]byte, pat *[32]byte, planes, dstPlane, srcPlane int, rowIdx *int32, run0, run1 int)",
		name+" pads rows by a word table: block b of row r of dst (32 bytes",
		"at r*dstStride+tab.blocks[b].dst) takes word tab.blocks[b].idx[k]&7 of",
		"the 32-byte window at tab.blocks[b].src of row r of src (at",
		"r*srcStride) as its word k where bit 31 of idx[k] is set, and the",
		"pattern's (pat[4*k%32:], from the block's start: the value repeats",
		"every element, and blocks start at multiples of the element size)",
		"where it is clear, for b below tab.n (an int32 at 0; tab.full, at 4,",
		"is not 0 when every word takes a src word). Rows repeat for planes",
		"planes at p*dstPlane and p*srcPlane; when rowIdx is not nil, row r",
		"takes src row rowIdx[r]. Rows run0 to run1-1",
		listRunDoc,
		"",
		"\tfor p := 0; p < planes; p++ {\n\t\tfor r := 0; r < rows; r++ {\n\t\t\td := dst[p*dstPlane+r*dstStride:]\n\t\t\ts := src[p*srcPlane+rowIdx[r]*srcStride:] // r*srcStride if rowIdx is nil\n\t\t\tfor _, b := range tab.blocks[:tab.n] {\n\t\t\t\tfor k, x := range b.idx {\n\t\t\t\t\tw := pat[4*k%32:][:4]\n\t\t\t\t\tif x>>31 != 0 {\n\t\t\t\t\t\tw = s[b.src+4*(x&7):][:4]\n\t\t\t\t\t}\n\t\t\t\t\tcopy(d[b.dst+4*k:], w)\n\t\t\t\t}\n\t\t\t}\n\t\t}\n\t}",
		"",
		"tab is a wordShuffle (shuffle.go); rows, planes >= 1, tab.n >= 1. It",
		"requires AVX2.")
	tab, ypat, loops := avx2ShuffleArgs("shufw")

	// Rows of two to four blocks (33 to 128 bytes: suite case c's 64-byte
	// rows, float32 rows of up to 32 elements) keep the indexes in
	// registers, the blocks unrolled; rows whose words all come from the
	// src row (edge, mirrored) need no blend. Rows of two blocks keep the
	// offsets in registers too; wider ones load them from the table a row
	// (too few registers). Unrolled, rows of three and four blocks took
	// 0.72-0.96x the time of the loop over the table below.
	for _, n := range []int{2, 3, 4} {
		next := newLabel(fmt.Sprintf("shufw_not%d", n))
		CMPL(at(tab, 0), U8(n))
		JNE(LabelRef(next))
		// Block b's entry: dst and src offsets, then its indexes. Block
		// 0 is at the row's start.
		entry := func(b int) int { return 8 + 48*b }
		idx := make([]reg.VecVirtual, n)
		var srcOff, dstOff []reg.Register
		for b := range idx {
			idx[b] = YMM()
			VMOVDQU(at(tab, entry(b)+16), idx[b])
		}
		if n == 2 {
			srcOff, dstOff = []reg.Register{gp(), gp()}, []reg.Register{nil, gp()}
			MOVQ(at(tab, entry(0)+8), srcOff[0])
			MOVQ(at(tab, entry(1)+8), srcOff[1])
			MOVQ(at(tab, entry(1)), dstOff[1])
		}
		// offset returns the register that holds the offset at tab's
		// byte off for block b (regs[b] when kept, else loaded now).
		offset := func(regs []reg.Register, b, off int) reg.Register {
			if regs != nil {
				return regs[b]
			}
			o := gp()
			MOVQ(at(tab, off), o)
			return o
		}
		unrolled := func(full bool) func(dr, row reg.GPVirtual) {
			return func(dr, row reg.GPVirtual) {
				w := make([]reg.VecVirtual, n)
				for b := range w {
					w[b] = YMM()
					VMOVDQU(Mem{Base: row, Index: offset(srcOff, b, entry(b)+8), Scale: 1}, w[b])
				}
				for b := range w {
					VPERMD(w[b], idx[b], w[b])
				}
				if !full {
					for b := range w {
						VBLENDVPS(idx[b], w[b], ypat, w[b])
					}
				}
				VMOVDQU(w[0], at(dr, 0))
				for b := 1; b < n; b++ {
					VMOVDQU(w[b], Mem{Base: dr, Index: offset(dstOff, b, entry(b)), Scale: 1})
				}
			}
		}
		byFull(tab, fmt.Sprintf("shufw_blocks%d", n), func(full bool) { loops(unrolled(full)) })
		Label(next)
	}
	// Rows of one block: a loop over the table.
	first, end := gp(), gp() // the first block, the table's end: n blocks of 48 bytes
	LEAQ(at(tab, 8), first)
	MOVLQZX(at(tab, 0), end)
	IMUL3Q(U8(48), end, end)
	ADDQ(first, end)
	loops(func(dr, row reg.GPVirtual) {
		blockLoop := newLabel("shufw_blocks")
		bp := gp()
		MOVQ(first, bp)
		Label(blockLoop)
		off := gp()
		w, idx := YMM(), YMM()
		MOVQ(at(bp, 8), off)
		VMOVDQU(Mem{Base: row, Index: off, Scale: 1}, w)
		VMOVDQU(at(bp, 16), idx)
		VPERMD(w, idx, w)
		VBLENDVPS(idx, w, ypat, w) // the taken words (idx's sign) from w, the others the pattern
		MOVQ(at(bp, 0), off)
		VMOVDQU(w, Mem{Base: dr, Index: off, Scale: 1})
		ADDQ(U8(48), bp)
		CMPQ(bp, end)
		JB(LabelRef(blockLoop))
	})
}

// avx2ShuffleArgs loads the arguments of the AVX2 shuffle kernels (dst,
// src, rows, dstStride, srcStride, tab, pat, planes, dstPlane, srcPlane,
// rowIdx, run0, run1) and returns the table, the pattern and loops, which
// emits the walks over the planes and rows (planeWalks, labels named
// after name) around body, which makes the row at dst dr from the src row
// at row. Such kernels read no more than their rows: no load limit.
func avx2ShuffleArgs(name string) (tab reg.Register, ypat reg.VecVirtual, loops func(body func(dr, row reg.GPVirtual))) {
	listOffsets := AllocLocal(64)
	d := Load(Param("dst"), gp())
	s := Load(Param("src"), gp())
	ds := Load(Param("dstStride"), gp())
	ss := Load(Param("srcStride"), gp())
	ypat = YMM()
	VMOVDQU(at(Load(Param("pat"), gp()), 0), ypat)
	planes := Load(Param("planes"), gp())
	tab = Load(Param("tab"), gp())
	loops = func(body func(dr, row reg.GPVirtual)) {
		// d and s are the planes' bases; the plane strides stay in memory,
		// which leaves enough registers without R15.
		dr, row := gp(), gp()
		dp, sp := paramMem("dstPlane"), paramMem("srcPlane")
		planeWalks(name, d, s, dp, sp, planes, dr, ss, row, nil, listOffsets, 4, func(bool) { body(dr, row) }, func() { ADDQ(ds, dr) }, nil)
	}
	return tab, ypat, loops
}

// listRunDoc is the shuffle kernels' contract for the run of consecutive
// rows in a row list.
const listRunDoc = "(0 <= run0 <= run1 <= rows) must be listed as consecutive rows,\n" +
	"rowIdx[r] = rowIdx[run0]+r-run0: the kernel steps through them at\n" +
	"srcStride instead of reading the list, as an address that waits for a\n" +
	"load of the list costs 30% of the time of 64-byte rows (suite case c).\n" +
	"run0 and run1 are not read when rowIdx is nil:"

// planeWalks emits a shuffle kernel's walks over its planes and rows
// around body, each ending in the kernel's return: strided rows when
// rowIdx is nil, else listed rows, whose src offsets come from registers
// (loadListOffsets: up to lanes before and after the run, built in buf)
// or, for longer lists, from the list itself. limit is the src address up
// to which body may load whole windows (srcLimit), nil for a kernel that
// reads no more than its rows; step moves d on a row.
func planeWalks(name string, d0, s0 reg.Register, dp, sp Op, planes, d, ss, row, limit reg.Register, buf Mem, lanes int, body func(checked bool), step func(), last func(bool)) {
	list, slow := newLabel(name+"_list"), newLabel(name+"_list_loads")
	CMPQ(paramMem("rowIdx"), U8(0))
	JNE(LabelRef(list))
	planeLoop(d0, s0, dp, sp, planes, d, func() { stridedRows(s0, ss, row, limit, body, step) }, last)
	Label(list)
	la := loadRowListArgs(ss)
	lo := loadListOffsets(ss, buf, lanes, slow)
	planeLoop(d0, s0, dp, sp, planes, d, func() { listedRowsFromOffsets(la, lo, s0, ss, row, limit, body, step) }, last)
	Label(slow)
	planeLoop(d0, s0, dp, sp, planes, d, func() { listedRows(la, s0, ss, row, limit, body, step) }, last)
}

// planeLoop emits the loop over the planes of a shuffle kernel and its
// return: rows makes a plane's rows, from dst d (a copy of d0) and src s0.
// When last is not nil, the last plane is made after the loop over the
// others, last(true) called before its rows are emitted and last(false)
// after them (the caller's rows may differ there).
func planeLoop(d0, s0 reg.Register, dp, sp Op, planes, d reg.Register, rows func(), last func(bool)) {
	l, lastPlane := newLabel("shuf_planes"), newLabel("shuf_last_plane")
	if last != nil {
		DECQ(planes)
		JZ(LabelRef(lastPlane))
	}
	Label(l)
	MOVQ(d0, d)
	rows()
	ADDQ(dp, d0)
	ADDQ(sp, s0)
	DECQ(planes)
	JNZ(LabelRef(l))
	if last != nil {
		Label(lastPlane)
		last(true)
		MOVQ(d0, d)
		rows()
		last(false)
	}
	VZEROUPPER()
	RET()
}

// stridedRows emits the rows of a plane without a row list: body makes
// the row from src row (row r at s0+r*ss), step moves dst on a row.
func stridedRows(s0, ss, row, limit reg.Register, body func(checked bool), step func()) {
	n := Load(Param("rows"), gp())
	stepRows(n, ss, row, limit, func() { MOVQ(s0, row) }, body, step)
}

// stepRows emits n rows (n > 0 tested) from src rows ss apart, the first
// at row as start sets it. When the last row is at or below limit, so are
// the others (ss >= 0): the rows load without checking it, which is one
// compare and branch less a row (suite case c: most of a plane's rows).
func stepRows(n, ss, row, limit reg.Register, start func(), body func(checked bool), step func()) {
	turn := func(checked bool) func() {
		return func() {
			body(checked)
			step()
			ADDQ(ss, row)
		}
	}
	if limit == nil { // a kernel that reads no more than the row
		rowsOf(n, start, turn(false))
		return
	}
	done, checked := newLabel("shuf_run_done"), newLabel("shuf_run_checked")
	TESTQ(n, n)
	JZ(LabelRef(done))
	start()
	last := gp()
	LEAQ(at(n, -1), last)
	IMULQ(ss, last)
	ADDQ(row, last)
	CMPQ(last, limit)
	JHI(LabelRef(checked))
	rowsOf(n, func() {}, turn(false))
	JMP(LabelRef(done))
	Label(checked)
	rowsOf(n, func() {}, turn(true))
	Label(done)
}

// rowListArgs holds, in vector registers so that a plane reads no
// memory before its first row, what listedRows needs of the list
// arguments: the list, the counts of the rows before, in and after the
// run, the offset of the run's first src row and the list's entry after
// the run.
type rowListArgs struct{ list, head, mid, midOff, tail, tailList reg.VecVirtual }

// loadRowListArgs emits the computation of the list arguments, once per
// call.
func loadRowListArgs(ss reg.Register) rowListArgs {
	a := rowListArgs{XMM(), XMM(), XMM(), XMM(), XMM(), XMM()}
	li, n, x := gp(), gp(), gp()
	Load(Param("rowIdx"), li)
	VMOVQ(li, a.list)
	Load(Param("run0"), n)
	VMOVQ(n, a.head)
	XORQ(x, x)
	Load(Param("run1"), n)
	SUBQ(paramMem("run0"), n)
	VMOVQ(n, a.mid)
	noRun := newLabel("shuf_no_run")
	JZ(LabelRef(noRun))
	Load(Param("run0"), n)
	MOVLQSX(Mem{Base: li, Index: n, Scale: 4}, x)
	IMULQ(ss, x)
	Label(noRun)
	VMOVQ(x, a.midOff)
	Load(Param("run1"), n)
	LEAQ(Mem{Base: li, Index: n, Scale: 4}, x)
	VMOVQ(x, a.tailList)
	Load(Param("rows"), n)
	SUBQ(paramMem("run1"), n)
	VMOVQ(n, a.tail)
	return a
}

// listOffsets holds in two vector registers of lanes qwords (8 in a ZMM,
// 4 in a YMM) the src offsets (rowIdx[r] * srcStride) of the listed rows
// before the run (lanes in order) and after it: with up to lanes of each,
// a listed row takes its address from a register. An address that waits
// for a load of the list made each listed row cost about as much as three
// others (suite case c, two listed rows of 16 a plane: 1.24x the memmove
// of the output against 0.97x).
type listOffsets struct {
	head, tail reg.VecVirtual
	lanes      int
}

// loadListOffsets emits the building of the list offsets in the frame
// buf (16*lanes bytes) and their loads, once per call; it jumps to slow
// when more than lanes rows come before or after the run.
func loadListOffsets(ss reg.Register, buf Mem, lanes int, slow string) listOffsets {
	li, i, n, x := gp(), gp(), gp(), gp()
	fill := func(start Op, count func(), off int) {
		count()
		CMPQ(n, U8(lanes))
		JA(LabelRef(slow))
		Load(Param("rowIdx"), li)
		MOVQ(start, x)
		LEAQ(Mem{Base: li, Index: x, Scale: 4}, li)
		XORQ(i, i)
		loop, done := newLabel("shuf_offs"), newLabel("shuf_offs_done")
		Label(loop)
		CMPQ(i, n)
		JAE(LabelRef(done))
		MOVLQSX(Mem{Base: li, Index: i, Scale: 4}, x)
		IMULQ(ss, x)
		MOVQ(x, Mem{Base: buf.Base, Disp: buf.Disp + off, Index: i, Scale: 8})
		INCQ(i)
		JMP(LabelRef(loop))
		Label(done)
	}
	fill(U32(0), func() { Load(Param("run0"), n) }, 0)
	fill(paramMem("run1"), func() {
		Load(Param("rows"), n)
		SUBQ(paramMem("run1"), n)
	}, 8*lanes)
	tail := Mem{Base: buf.Base, Disp: buf.Disp + 8*lanes}
	if lanes == 8 {
		o := listOffsets{ZMM(), ZMM(), lanes}
		VMOVDQU64(buf, o.head)
		VMOVDQU64(tail, o.tail)
		return o
	}
	o := listOffsets{YMM(), YMM(), lanes}
	VMOVDQU(buf, o.head)
	VMOVDQU(tail, o.tail)
	return o
}

// listedRowsFromOffsets is listedRows with the listed rows' src offsets in
// registers (loadListOffsets): each row takes lane 0 and rotates the next
// one in (VALIGNQ; VPERMQ in a YMM).
func listedRowsFromOffsets(a rowListArgs, o listOffsets, s0, ss, row, limit reg.Register, body func(checked bool), step func()) {
	var cur reg.VecVirtual
	copyIn := func(v reg.VecVirtual) { VMOVDQA64(v, cur) }
	rotate := func() { VALIGNQ(U8(1), cur, cur, cur) }
	if o.lanes == 8 {
		cur = ZMM()
	} else {
		cur = YMM()
		copyIn = func(v reg.VecVirtual) { VMOVDQA(v, cur) }
		rotate = func() { VPERMQ(U8(0x39), cur, cur) }
	}
	planeOfLists(a, s0, ss, row, limit, body, step, listSource{
		head: func() { copyIn(o.head) },
		tail: func() { copyIn(o.tail) },
		addr: func() {
			VMOVQ(cur.AsX(), row)
			ADDQ(s0, row)
		},
		next: rotate,
	})
}

// listedRows emits the rows of a plane from the src rows rowIdx lists
// but for rows run0 to run1, which step on by srcStride.
func listedRows(a rowListArgs, s0, ss, row, limit reg.Register, body func(checked bool), step func()) {
	li := gp()
	planeOfLists(a, s0, ss, row, limit, body, step, listSource{
		head: func() { VMOVQ(a.list, li) },
		tail: func() { VMOVQ(a.tailList, li) },
		addr: func() {
			MOVLQSX(at(li, 0), row)
			IMULQ(ss, row)
			ADDQ(s0, row)
		},
		next: func() { ADDQ(U8(4), li) },
	})
}

// listSource is where a plane's listed rows take their src rows from:
// head and tail set up the rows before and after the run, addr puts a
// listed row's src address in row, next moves on to the next listed row.
type listSource struct{ head, tail, addr, next func() }

// planeOfLists emits a plane's rows: the listed rows before the run, the
// run (rows ss apart, stepRows) and the listed rows after it.
func planeOfLists(a rowListArgs, s0, ss, row, limit reg.Register, body func(checked bool), step func(), src listSource) {
	n := gp()
	listed := func() {
		src.addr()
		body(true)
		step()
		src.next()
	}
	src.head()
	VMOVQ(a.head, n)
	rowsOf(n, func() {}, listed)
	VMOVQ(a.mid, n)
	stepRows(n, ss, row, limit, func() {
		VMOVQ(a.midOff, row)
		ADDQ(s0, row)
	}, body, step)
	src.tail()
	VMOVQ(a.tail, n)
	rowsOf(n, func() {}, listed)
}

// rowsOf emits, when n > 0, start and then n turns of body (n counts
// down).
func rowsOf(n reg.Register, start, body func()) {
	done, l := newLabel("shuf_done"), newLabel("shuf_rows")
	TESTQ(n, n)
	JZ(LabelRef(done))
	start()
	Label(l)
	body()
	DECQ(n)
	JNZ(LabelRef(l))
	Label(done)
}

// genRowsShuffle256 emits rowsShuffle256AVX512: the shuffle kernel for rows
// of 129 to 384 bytes from 64 to 256 that take no value. Each 64 bytes of
// output is one VPERMI2B of two 64-byte windows inside the input row: its
// first and last 64 bytes around the row's ends (the pads' sources, whatever
// the mode; all of a row of at most 128 bytes), the windows that hold the
// copy between. No load leaves the row and no store is masked.
func genRowsShuffle256() {
	name := "rowsShuffle256AVX512"
	kernel(name, "func(dst, src *byte, rows, dstStride, srcStride, width, mid int, tab *[384]byte, planes, dstPlane, srcPlane int, rowIdx *int32, run0, run1 int)",
		name+" pads rows of 129 to 384 bytes from 64 to 256 by a chunk",
		"table: chunk c of row r of dst, the 64 bytes at r*dstStride+at(c)",
		"(at(c) = 64c, the last chunk's width-64), takes byte i from byte",
		"tab[64c+i] of the two 64-byte windows of row r of src (at",
		"r*srcStride) that windowSlots names, slot k the window at",
		"min(64k, mid-64): the row's first and last 64 bytes for the first",
		"chunk, its last and first for the last chunk, slots c-1 and c (at",
		"most 3) between; where mid <= 128, the row's first and last 64",
		"bytes for every chunk. Rows repeat for planes planes at p*dstPlane and",
		"p*srcPlane; when rowIdx is not nil, row r takes src row rowIdx[r].",
		"Rows run0 to run1-1",
		listRunDoc,
		"",
		"\tfor p := 0; p < planes; p++ {\n\t\tfor r := 0; r < rows; r++ {\n\t\t\td := dst[p*dstPlane+r*dstStride:]\n\t\t\ts := src[p*srcPlane+rowIdx[r]*srcStride:] // r*srcStride if rowIdx is nil\n\t\t\tn := (width+63)/64\n\t\t\tfor c := 0; c < n; c++ {\n\t\t\t\ta, b := windowSlots(c, n)\n\t\t\t\tw := append(s[slot(a):][:64:64], s[slot(b):][:64]...)\n\t\t\t\tat := min(64*c, width-64)\n\t\t\t\tfor i := 0; i < 64; i++ {\n\t\t\t\t\td[at+i] = w[tab[64*c+i]]\n\t\t\t\t}\n\t\t\t}\n\t\t}\n\t}",
		"",
		"tab is a shuffle256Table (shuffle.go), every index below 128; rows,",
		"planes >= 1. It requires AVX-512 F, BW and VBMI.")
	listOffsets := AllocLocal(128)
	d := Load(Param("dst"), gp())
	s := Load(Param("src"), gp())
	ds := Load(Param("dstStride"), gp())
	ss := Load(Param("srcStride"), gp())
	planes := Load(Param("planes"), gp())
	tab := Load(Param("tab"), gp())
	// The windows' offsets in a row: slot k at min(64k, mid-64), slot 3
	// the row's last 64 bytes; and the last chunk's offset.
	// Slots 1 and 2 stay in memory (offsets), loaded a row: in registers
	// they left the walks too few.
	m64, w64 := gp(), gp()
	Load(Param("mid"), m64)
	SUBQ(U8(64), m64)
	offsets := AllocLocal(16)
	for k := 1; k <= 2; k++ {
		o := gp()
		MOVQ(U32(64*k), o)
		CMPQ(m64, o)
		CMOVQLT(m64, o)
		MOVQ(o, offsets.Offset(8*(k-1)))
	}
	Load(Param("width"), w64)
	SUBQ(U8(64), w64)
	var idx [shuffleWindowChunks]reg.VecVirtual
	for c := range shuffleWindowChunks {
		idx[c] = ZMM()
		VMOVDQU64(at(tab, 64*c), idx[c])
	}
	// loops emits the walks of rows of n chunks: with slotted, each
	// chunk's two windows by windowSlots; without (mid <= 128), the row's
	// first and last 64 bytes, which hold all of it, for every chunk.
	loops := func(chunks int, slotted bool) {
		dr, row := gp(), gp()
		dp, sp := paramMem("dstPlane"), paramMem("srcPlane")
		planeWalks("shuf256", d, s, dp, sp, planes, dr, ss, row, nil, listOffsets, 8, func(bool) {
			var w [4]reg.VecVirtual
			slot := func(k int) reg.VecVirtual {
				if w[k] == nil {
					w[k] = ZMM()
					switch k {
					case 0:
						VMOVDQU64(at(row, 0), w[k])
					case 3:
						VMOVDQU64(Mem{Base: row, Index: m64, Scale: 1}, w[k])
					default:
						o := gp()
						MOVQ(offsets.Offset(8*(k-1)), o)
						VMOVDQU64(Mem{Base: row, Index: o, Scale: 1}, w[k])
					}
				}
				return w[k]
			}
			for c := range chunks {
				a, b := 0, 3
				if slotted {
					a, b = windowSlots(c, chunks)
				}
				p := ZMM()
				VMOVDQA64(idx[c], p)
				VPERMI2B(slot(b), slot(a), p)
				if c == chunks-1 {
					VMOVDQU64(p, Mem{Base: dr, Index: w64, Scale: 1})
				} else {
					VMOVDQU64(p, at(dr, 64*c))
				}
			}
		}, func() { ADDQ(ds, dr) }, nil)
	}
	// n chunks: width in (64(n-1), 64n], w64 in (64(n-2), 64(n-1)].
	slotted := newLabel("shuf256_slotted")
	CMPQ(m64, U8(64))
	JA(LabelRef(slotted))
	for _, slots := range []bool{false, true} {
		if slots {
			Label(slotted)
		}
		labels := make([]string, shuffleWindowChunks+1)
		for n := shuffleWindowChunks; n > 3; n-- {
			labels[n] = newLabel(fmt.Sprintf("shuf256_%d", n))
			CMPQ(w64, U32(64*(n-2)))
			JA(LabelRef(labels[n]))
		}
		loops(3, slots) // 129..192 bytes
		for n := 4; n <= shuffleWindowChunks; n++ {
			Label(labels[n])
			loops(n, slots)
		}
	}
}

// shuffleWindowChunks is the most 64-byte chunks of a row that
// rowsShuffle256AVX512 makes: rows of up to 384 bytes.
const shuffleWindowChunks = 6

// windowSlots returns the slots of the two windows whose bytes chunk c of
// n takes (shuffle.go: shuffle256Windows): the row's first and last 64
// bytes around its ends, slots c-1 and c between.
func windowSlots(c, n int) (a, b int) {
	switch c {
	case 0:
		return 0, 3
	case n - 1:
		return 3, 0
	}
	return min(c-1, 3), min(c, 3)
}
