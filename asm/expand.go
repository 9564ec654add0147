package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// genRowsExpand emits rowsExpandAVX512: constant padding of planes whose
// rows and planes follow each other in src and in dst (a conv pad, suite
// case a), made as one stream of 64-byte-aligned blocks. Each block is
// one VPEXPANDB: the next input bytes, in order, spread over the bytes its
// mask takes, the pattern in the others. The masks repeat every
// lcm(plane, 64) output bytes, so a table of them serves every plane, and
// the loop has no row or plane boundary to test. The masks go through
// general registers (KMOVQ from memory measured slower in such a loop),
// and the loop makes eight blocks a turn.
//
// With dwords it emits rowsExpandDwordsAVX512, the same kernel for tables
// whose masks take whole 4-byte words (elements of 4, 8 or 16 bytes): a
// 16-bit word mask a block and VPEXPANDD, which costs the shuffle port
// half what VPEXPANDB does (case a's blocks in L2: 5% faster, as fast as
// a plain AVX-512 copy), and needs no VBMI2.
func genRowsExpand(dwords bool) {
	name, tabType, scale := "rowsExpandAVX512", "*uint64", 8 // scale: table bytes a block
	if dwords {
		name, tabType, scale = "rowsExpandDwordsAVX512", "*byte", 2
	}
	doc := []string{name + " writes n bytes to dst, 64-byte block j (the last one partial",
		"when n is not a multiple of 64) by the mask tab[j%entries]: each byte",
		"whose bit is set takes the next src byte, the others the pattern.",
		"tab holds entries+7 masks, the last seven copies of the first seven.",
		"It reads 64 bytes from the first src byte of each block (within",
		"srcEnd, below) and makes",
		"",
		"\ts := 0\n\tfor o := 0; o < n; o++ {\n\t\tif tab[o/64%entries]>>(o%64)&1 != 0 {\n\t\t\tdst[o] = src[s]\n\t\t\ts++\n\t\t} else {\n\t\t\tdst[o] = pat[o%32]\n\t\t}\n\t}",
		"",
		"dst is 64-byte aligned, n >= 1, entries >= 8. It requires AVX-512 F,",
		"BW, VBMI and VBMI2."}
	if dwords {
		doc = []string{name + " writes n bytes to dst, 64-byte block j (the last one partial",
			"when n is not a multiple of 64) by the word masks of its halves,",
			"tab[2j%entries] and tab[(2j+1)%entries]: each 4-byte word whose bit is",
			"set takes the next 4 src bytes, the others the pattern. tab holds",
			"entries+14 masks, the last 14 copies of the first 14 (the table of",
			"rowsExpandDwordsAVX2). It reads 64 bytes from the first src byte of",
			"each block (within srcEnd, below) and makes",
			"",
			"\ts := 0\n\tfor w := 0; w < n/4; w++ {\n\t\tif tab[w/8%entries]>>(w%8)&1 != 0 {\n\t\t\tcopy(dst[4*w:4*w+4], src[s:s+4])\n\t\t\ts += 4\n\t\t} else {\n\t\t\tcopy(dst[4*w:4*w+4], pat[4*w%32:])\n\t\t}\n\t}",
			"",
			"dst is 64-byte aligned, n >= 4 and a multiple of 4, entries >= 16 and",
			"even. It requires AVX-512 F and BW."}
	}
	doc = append(doc, "", srcEndDoc(64, 11))
	kernel(name, "func(dst, src *byte, n int, tab "+tabType+", entries int, pat *[32]byte, srcEnd uintptr)", doc...)
	limit := srcLimitLocal(64)
	d := Load(Param("dst"), gp())
	s := Load(Param("src"), gp())
	n := Load(Param("n"), gp())
	tp := Load(Param("tab"), gp())
	span := Load(Param("entries"), gp())
	if !dwords {
		SHLQ(U8(3), span) // the table's period in bytes
	}
	end := gp()
	LEAQ(Mem{Base: tp, Index: span, Scale: 1}, end)
	zpat := ZMM()
	VBROADCASTI64X4(at(Load(Param("pat"), gp()), 0), zpat)

	// wrap moves tp back by a period once it has passed the period's end
	// (the seven copies after it cover the entries read meanwhile; eight
	// blocks a period or more put it back inside the period).
	wrap := func() {
		t := gp()
		MOVQ(tp, t)
		SUBQ(span, t)
		CMPQ(tp, end)
		CMOVQCC(t, tp)
	}
	label := "expand"
	if dwords {
		label = "expandd"
	}
	// mask loads block i's mask of the turn into a general register.
	mask := func(i int) reg.GPVirtual {
		m := GP64()
		if dwords {
			MOVWQZX(at(tp, scale*i), m)
		} else {
			MOVQ(at(tp, scale*i), m)
		}
		return m
	}
	// block makes the block at d+off by mask m (a general register,
	// clobbered) and stores it whole, or under store when not nil. Its
	// input is the 64 bytes at s, loaded whole, while they end in the
	// page of the call's last input byte (s <= limit); above, the 64
	// bytes before srcEnd, rotated into place (expandFar, out of line): a
	// masked load whose masked-off bytes lie in a page that is not present
	// costs a microcode assist of about 190 ns on a Zen 5 (KERNELS.md item
	// 7). The expansion's memory form, which reads only the bytes it
	// takes, took 1.07-1.13x the time of a load and the register form on
	// constant planes (float32 [1, 256, 14, 14] padded by 1: 3.80 -> 3.44
	// us).
	var outOfLine []func()
	block := func(m reg.GPVirtual, off int, store reg.OpmaskVirtual) {
		k, z := kreg(), ZMM()
		far, back := newLabel(label+"_far"), newLabel(label+"_near")
		if dwords {
			KMOVW(m.As32(), k)
		} else {
			KMOVQ(m, k)
		}
		VMOVDQA64(zpat, z)
		CMPQ(s, limit)
		JA(LabelRef(far))
		w := ZMM()
		VMOVDQU64(at(s, 0), w)
		if dwords {
			VPEXPANDD(w, k, z)
		} else {
			VPEXPANDB(w, k, z)
		}
		Label(back)
		POPCNTQ(m, m)
		if dwords {
			LEAQ(Mem{Base: s, Index: m, Scale: 4}, s)
		} else {
			ADDQ(m, s)
		}
		outOfLine = append(outOfLine, func() {
			Label(far)
			expandFar(s, limit, k, z, dwords)
			JMP(LabelRef(back))
		})
		switch {
		case store == nil:
			VMOVDQA64(z, at(d, off))
		case dwords:
			VMOVDQU32(z, store, at(d, off))
		default:
			VMOVDQU8(z, store, at(d, off))
		}
	}

	turns, singles, tail, ret := newLabel(label+"_turns"), newLabel(label+"_singles"), newLabel(label+"_tail"), newLabel(label+"_ret")
	unit := uint8(1) // src bytes a mask bit takes
	if dwords {
		unit = 4
	}
	// The blocks of a turn start at most 448 input bytes on: turns run
	// while s <= limit-448, and no block of theirs checks (in a register:
	// a load a turn more took 1.5% longer).
	turnLimit := gp()
	MOVQ(limit, turnLimit)
	SUBQ(U32(448), turnLimit)
	CMPQ(n, U32(512))
	JB(LabelRef(singles))
	Label(turns) // while 512 or more bytes are left, eight whole blocks
	{
		CMPQ(s, turnLimit)
		JA(LabelRef(singles))
		// The blocks' src offsets are running sums of their masks' counts,
		// worked out beside the chain through s, which takes one addition
		// per four blocks: with an addition a block on it, suite case a
		// (its table in L2) took 1.08x the memmove of its output, with one
		// a turn of four 1.01x. Eight blocks a turn (two fours, seven mask
		// registers) share the turn's pointer and period steps: float32
		// [1, 64, 28, 28] padded by 1, whose blocks stay in L2, 1.63 ->
		// 1.52x memmove; uint8 [1, 64, 56, 56] 1.72 -> 1.62.
		for g := 0; g < 2; g++ {
			// ms[i]: block i's mask, then the units before block i+1.
			var ms [4]reg.GPVirtual
			var ks [4]reg.OpmaskVirtual
			if dwords {
				// One load for the four 16-bit masks, and the counts as
				// prefix counts of it: loads, not arithmetic, bound this
				// loop (in an L1 microbenchmark a 4-byte load more a
				// block cost 25%). In process against memmove: float32
				// [1, 256, 14, 14] 1.51 -> 1.44x, suite case a 1.00 ->
				// 0.97x; [1, 64, 28, 28] 1.52 -> 1.51x.
				all := gp()
				MOVQ(at(tp, 8*g), all)
				for i := range ms {
					ks[i], ms[i] = kreg(), gp()
					if i == 0 {
						KMOVW(all.As32(), ks[i]) // the low 16 bits
					} else {
						MOVQ(all, ms[i])
						SHRQ(U8(16*i), ms[i])
						KMOVW(ms[i].As32(), ks[i])
					}
					if i == 3 {
						POPCNTQ(all, ms[i])
						continue
					}
					MOVQ(all, ms[i])
					SHLQ(U8(64-16*(i+1)), ms[i]) // masks 0..i
					POPCNTQ(ms[i], ms[i])
				}
			} else {
				for i := range ms {
					ms[i], ks[i] = mask(4*g+i), kreg()
					KMOVQ(ms[i], ks[i])
					POPCNTQ(ms[i], ms[i])
				}
				for i := 1; i < 4; i++ {
					ADDQ(ms[i-1], ms[i])
				}
			}
			for i := range ms {
				z := ZMM()
				VMOVDQA64(zpat, z)
				src := at(s, 0)
				if i > 0 {
					src = Mem{Base: s, Index: ms[i-1], Scale: unit}
				}
				w := ZMM()
				VMOVDQU64(src, w)
				if dwords {
					VPEXPANDD(w, ks[i], z)
				} else {
					VPEXPANDB(w, ks[i], z)
				}
				VMOVDQA64(z, at(d, 256*g+64*i))
			}
			LEAQ(Mem{Base: s, Index: ms[3], Scale: unit}, s)
		}
		ADDQ(U8(8*scale), tp)
		wrap()
		ADDQ(U32(512), d)
		SUBQ(U32(512), n)
		CMPQ(n, U32(512))
		JAE(LabelRef(turns))
	}
	Label(singles) // whole blocks left
	CMPQ(n, U8(64))
	JB(LabelRef(tail))
	{
		block(mask(0), 0, nil)
		ADDQ(U8(scale), tp)
		wrap()
		ADDQ(U8(64), d)
		SUBQ(U8(64), n)
		JMP(LabelRef(singles))
	}
	Label(tail) // a partial block: its mask cut at n bytes (n/4 words)
	TESTQ(n, n)
	JZ(LabelRef(ret))
	{
		if dwords {
			SHRQ(U8(2), n)
		}
		k := kreg()
		lowMask(n, k)
		cut := GP64()
		KMOVQ(k, cut)
		m := mask(0)
		ANDQ(cut, m)
		block(m, 0, k)
	}
	Label(ret)
	VZEROUPPER()
	RET()
	for _, f := range outOfLine {
		f()
	}
}

// srcEndDoc documents a kernel's srcEnd argument, for blocks that read
// window bytes from their start (KERNELS.md item n).
func srcEndDoc(window, item int) string {
	return fmt.Sprintf("srcEnd is the end of the page of the call's last input byte: a block\n"+
		"whose %d-byte window from its input's start would pass it takes its\n"+
		"input from the %d bytes before srcEnd instead (whole, its other bytes\n"+
		"not used), so that no masked load reaches the next page (KERNELS.md\n"+
		"item %d).", window, window, item)
}

// srcLimitLocal stores srcEnd-window in a frame slot and returns it: the
// highest input address from which a block's window stays before srcEnd.
func srcLimitLocal(window int) Mem {
	limit := AllocLocal(8)
	t := gp()
	Load(Param("srcEnd"), t)
	SUBQ(U8(window), t)
	MOVQ(t, limit)
	return limit
}

// wordsBack returns, for input at s above limit (srcEnd less a window),
// q, the whole words from the window at s-4q to s, and -4q: that window
// starts 0 to 3 bytes below limit, so it ends in the page before srcEnd,
// and a word permutation by iota+q puts s's word first.
func wordsBack(s reg.Register, limit Mem) (q, back reg.GPVirtual) {
	q, back = gp(), gp()
	MOVQ(s, q)
	SUBQ(limit, q) // 1..window
	ADDQ(U8(3), q)
	SHRQ(U8(2), q)
	MOVQ(q, back)
	SHLQ(U8(2), back)
	NEGQ(back)
	return q, back
}

// expandFar expands, under k into z, the input at s > limit from a
// register: the 64 bytes before srcEnd (limit+64), rotated so that s's
// byte comes first; for words by a word permutation (AVX-512 F) of the
// window wordsBack gives, for bytes by a byte permutation (VBMI).
func expandFar(s reg.Register, limit Mem, k reg.OpmaskVirtual, z reg.VecVirtual, dwords bool) {
	w, idx := ZMM(), ZMM()
	if dwords {
		q, back := wordsBack(s, limit)
		qv := ZMM()
		VPMOVZXBD(iota64, idx) // the words 0..15
		VPBROADCASTD(q.As32(), qv)
		VPADDD(qv, idx, idx)
		VPERMD(Mem{Base: s, Index: back, Scale: 1}, idx, w)
		VPEXPANDD(w, k, z)
		return
	}
	t := gp()
	MOVQ(s, t)
	SUBQ(limit, t) // 1..64: s's offset in the page's last 64 bytes
	byteRamp(t, iota64, idx)
	MOVQ(limit, t)
	VPERMB(at(t, 0), idx, w)
	VPEXPANDB(w, k, z)
}

// genRowsExpandDwords emits rowsExpandDwordsAVX2: the expand kernel for
// CPUs without VBMI2 (AVX2, and AVX-512 without it), for tables whose
// masks take whole 4-byte words (elements of 4, 8 or 16 bytes). Each
// 32-byte block is one VPERMD of the 32 bytes from its first input word,
// blended with the pattern: a table of 256 entries gives, for the block's
// 8-bit word mask, each word's index and, in its sign bit, whether it
// takes one. Two blocks a turn. A masked load of exactly the words taken
// (VPMASKMOVD) made float32 conv pads in 1.13-1.23x the time on a Zen 5.
func genRowsExpandDwords() {
	name := "rowsExpandDwordsAVX2"
	kernel(name, "func(dst, src *byte, n int, tab *byte, entries int, pat *[32]byte, lut *[265][8]uint32, srcEnd uintptr)",
		name+" writes n bytes to dst, 32-byte block j (the last one partial",
		"when n is not a multiple of 32) by the word mask tab[j%entries]: each",
		"4-byte word whose bit is set takes the next 4 src bytes, the others",
		"the pattern. lut[m] holds, for mask m, the index of the src word each",
		"taken word takes with bit 31 set (0 for the others), and lut[256+c]",
		"the mask of the first c words. It reads 32 bytes from the first src",
		"word of each block (within srcEnd, below) and makes",
		"",
		"\ts := 0\n\tfor w := 0; w < n/4; w++ {\n\t\tif tab[w/8%entries]>>(w%8)&1 != 0 {\n\t\t\tcopy(dst[4*w:4*w+4], src[s:s+4])\n\t\t\ts += 4\n\t\t} else {\n\t\t\tcopy(dst[4*w:4*w+4], pat[4*w%32:])\n\t\t}\n\t}",
		"",
		"dst is 32-byte aligned, n >= 4 and a multiple of 4, entries even. It",
		"requires AVX2 and POPCNT.",
		"",
		srcEndDoc(32, 12))
	limit := srcLimitLocal(32)
	d := Load(Param("dst"), gp())
	s := Load(Param("src"), gp())
	n := Load(Param("n"), gp())
	tp := Load(Param("tab"), gp())
	end := gp()
	MOVQ(tp, end)
	ADDQ(Load(Param("entries"), gp()), end)
	start := gp()
	MOVQ(tp, start)
	lut := Load(Param("lut"), gp())
	ypat := YMM()
	VMOVDQU(at(Load(Param("pat"), gp()), 0), ypat)

	// block makes the block of the mask at tp+off from the src words at
	// s+in and stores it at d+off*32, whole, or its first cut words under
	// their mask when cut is not nil (the mask is cut to them first). It
	// returns the bytes it took: the loop adds them to s after a pair,
	// so that the only chain from block to block is that one addition.
	// With checked (in nil), a block whose input starts above limit
	// takes it from the last 32 bytes of its page (expandFar2, out of line).
	var outOfLine []func()
	block := func(off int, in reg.Register, cut reg.Register, checked bool) reg.GPVirtual {
		m, c := gp(), gp()
		MOVBQZX(at(tp, off), m)
		var sm reg.VecVirtual
		if cut != nil {
			k := gp()
			MOVQ(cut, k)
			SHLQ(U8(5), k)
			sm = YMM()
			VMOVDQU(Mem{Base: lut, Index: k, Scale: 1, Disp: 256 * 32}, sm)
			VMOVMSKPS(sm, k.As32()) // (1 << cut) - 1
			ANDQ(k, m)
		}
		POPCNTQ(m, c)
		SHLQ(U8(5), m)
		idx, w := YMM(), YMM()
		VMOVDQU(Mem{Base: lut, Index: m, Scale: 1}, idx)
		src := at(s, 0)
		if in != nil {
			src = Mem{Base: s, Index: in, Scale: 1}
		}
		far, back := newLabel("expandw_far"), newLabel("expandw_near")
		if checked {
			CMPQ(s, limit)
			JA(LabelRef(far))
		}
		VPERMD(src, idx, w) // 32 bytes from s+in, within srcEnd
		Label(back)
		if checked {
			outOfLine = append(outOfLine, func() {
				Label(far)
				expandFarAVX2(s, limit, idx, w)
				JMP(LabelRef(back))
			})
		}
		VBLENDVPS(idx, w, ypat, w) // taken words (idx's sign) from w, the others the pattern
		SHLQ(U8(2), c)             // 4 bytes a word
		if cut == nil {
			VMOVDQA(w, at(d, off*32))
		} else {
			VPMASKMOVD(w, sm, at(d, off*32))
		}
		return c
	}

	pairs, singles, tail, ret := newLabel("expandw_pairs"), newLabel("expandw_single"), newLabel("expandw_tail"), newLabel("expandw_ret")
	// A pair reads at most 64 bytes from s: pairs run while s <= limit-32
	// and check nothing more (a register compare a pair).
	pairLimit := gp()
	MOVQ(limit, pairLimit)
	SUBQ(U8(32), pairLimit)
	CMPQ(n, U8(64))
	JB(LabelRef(singles))
	alignLoop()
	Label(pairs) // while 64 or more bytes are left, two whole blocks
	general, next := newLabel("expandw_general"), newLabel("expandw_next")
	CMPQ(s, pairLimit)
	JA(LabelRef(singles))
	{
		// Most lines of a conv pad's output take all their words: those
		// are a copy (about 19 instructions a block otherwise).
		both := gp()
		MOVWQZX(at(tp, 0), both)
		CMPQ(both, U32(0xffff))
		JNE(LabelRef(general))
		copyLine(d, s)
		JMP(LabelRef(next))
	}
	Label(general)
	{
		c0 := block(0, nil, nil, false)
		c1 := block(1, c0, nil, false)
		ADDQ(c0, s)
		ADDQ(c1, s)
	}
	Label(next)
	ADDQ(U8(2), tp)
	CMPQ(tp, end) // entries is even: a pair never straddles the period's end
	CMOVQEQ(start, tp)
	ADDQ(U8(64), d)
	SUBQ(U8(64), n)
	CMPQ(n, U8(64))
	JAE(LabelRef(pairs))
	Label(singles) // whole blocks one at a time, each checked
	CMPQ(n, U8(32))
	JB(LabelRef(tail))
	ADDQ(block(0, nil, nil, true), s)
	ADDQ(U8(1), tp)
	CMPQ(tp, end)
	CMOVQEQ(start, tp)
	ADDQ(U8(32), d)
	SUBQ(U8(32), n)
	JMP(LabelRef(singles))
	Label(tail) // a partial block of n/4 words
	TESTQ(n, n)
	JZ(LabelRef(ret))
	SHRQ(U8(2), n)
	block(0, nil, n, true)
	Label(ret)
	VZEROUPPER()
	RET()
	for _, f := range outOfLine {
		f()
	}
}

// expandFarAVX2 sets w to the src words at s > limit permuted by idx
// (rowsExpandDwordsAVX2's block past its load limit): from the 32
// bytes wordsBack gives, by the indexes idx+q.
func expandFarAVX2(s reg.Register, limit Mem, idx, w reg.VecVirtual) {
	q, back := wordsBack(s, limit)
	qv, i := YMM(), YMM()
	VMOVQ(q, qv.AsX())
	VPBROADCASTD(qv.AsX(), qv)
	VPADDD(qv, idx, i) // idx's sign bits (the taken words) unchanged
	VPERMD(Mem{Base: s, Index: back, Scale: 1}, i, w)
}

// genRowsExpandBytes emits rowsExpandBytesAVX2: item 11's kernel (the
// same table of 64-bit masks, the same contract) for CPUs without VBMI2,
// where it makes interior padding of 1- and 2-byte elements (dilations,
// whose masks take single bytes). AVX2 has no expansion, so each 16-byte
// lane of a block is a VPSHUFB of the 16 bytes from its first input byte
// by the running count of its mask's bits (the mask spread to bytes by a
// broadcast, VPSHUFB and a compare, summed by three shift-and-add steps
// within 8-byte groups and one carry across them), blended with the
// pattern where the mask is clear. The lanes' input offsets are prefix
// counts of the block's mask (shifts and POPCNT), so the only chain from
// block to block is one addition to src. The last mask's offsets and
// indexes stay in registers: a dilation by one or three bytes repeats its
// mask from block to block (0x5555..., 0x1111...), and such blocks cost
// about 1.2 ns against 2.9 ns for the others (16 KiB in L1 on a Zen 5:
// 48-55 against 22 GB/s; a plain copy 137 GB/s). A block of a clear mask
// is the pattern, one of a full mask a copy.
func genRowsExpandBytes() {
	name := "rowsExpandBytesAVX2"
	kernel(name, "func(dst, src *byte, n int, tab *uint64, entries int, pat *[32]byte, srcEnd uintptr)",
		name+" writes n bytes to dst, 64-byte block j (the last one partial",
		"when n is not a multiple of 64) by the mask tab[j%entries]: each byte",
		"whose bit is set takes the next src byte, the others the pattern",
		"(rowsExpandAVX512's table and contract). It reads 16 bytes from the",
		"first src byte of each 16-byte lane (within srcEnd, below) and makes",
		"",
		"\ts := 0\n\tfor o := 0; o < n; o++ {\n\t\tif tab[o/64%entries]>>(o%64)&1 != 0 {\n\t\t\tdst[o] = src[s]\n\t\t\ts++\n\t\t} else {\n\t\t\tdst[o] = pat[o%32]\n\t\t}\n\t}",
		"",
		"dst is 64-byte aligned, n >= 1, entries >= 1. It requires AVX2 and",
		"POPCNT.",
		"",
		"srcEnd is the end of the page of the call's last input byte: a lane",
		"whose 16 bytes from its input's start would pass it takes them from",
		"the 16 bytes before srcEnd instead, its shuffle indexes moved up by as",
		"much, so that no load reaches the next page (KERNELS.md item 11).")
	limit := srcLimitLocal(64)
	d := Load(Param("dst"), gp())
	s := Load(Param("src"), gp())
	n := Load(Param("n"), gp())
	tp := Load(Param("tab"), gp())
	span := Load(Param("entries"), gp())
	SHLQ(U8(3), span) // the table's period in bytes
	end := gp()
	LEAQ(Mem{Base: tp, Index: span, Scale: 1}, end)
	ypat := YMM()
	VMOVDQU(at(Load(Param("pat"), gp()), 0), ypat)
	spread, bits, ones, carry := YMM(), YMM(), YMM(), YMM()
	{
		c := gp()
		LEAQ(revConsts, c)
		VMOVDQU(at(c, offSpread), spread)
		VPBROADCASTQ(at(c, offBits), bits)
		VBROADCASTI128(at(c, offCarry), carry)
	}
	VPCMPEQB(ones, ones, ones)

	// indexes returns, for half h of the block whose mask is at tp, its
	// taken bytes (the mask's 32 bits spread to bytes: 0xff) and each
	// taken byte's index in its lane's input: the running count of the
	// taken bytes in the lane, negative, complemented.
	indexes := func(h int) (taken, idx reg.VecVirtual) {
		t, sum, x := YMM(), YMM(), YMM()
		VPBROADCASTD(at(tp, 4*h), t)
		VPSHUFB(spread, t, t)
		VPAND(bits, t, t)
		VPCMPEQB(bits, t, t) // the taken bytes
		// The running count in each 8-byte group by shifts of the qwords,
		// then the first group's count (its byte 7) added to the second's
		// bytes: one shuffle where four byte shifts of the lanes (VPSLLDQ)
		// took four, in the same time on a Zen 5 (the loop is bound by its
		// instruction count: without this computation 1.7 ns a block, with
		// it 2.9).
		VPSLLQ(U8(8), t, x)
		VPADDB(x, t, sum)
		for _, k := range []int{16, 32} {
			VPSLLQ(U8(k), sum, x)
			VPADDB(x, sum, sum)
		}
		VPSHUFB(carry, sum, x)
		VPADDB(x, sum, sum)
		VPXOR(ones, sum, sum) // count-1: the taken byte's index
		return t, sum
	}
	// half makes a half block from its lanes' input at lo and hi by its
	// indexes: the lanes shuffled, blended with the pattern.
	half := func(taken, idx reg.VecVirtual, lo, hi Mem) reg.VecVirtual {
		w := YMM()
		VBROADCASTI128(lo, w) // a write of all of w (a load into its low lane leaves w live before)
		VINSERTI128(U8(1), hi, w, w)
		VPSHUFB(idx, w, w)
		VPBLENDVB(taken, w, ypat, w) // the taken bytes from w, the others the pattern
		return w
	}
	// counts sets c[i] to the count of mask m's first 16(i+1) bits: lane
	// i+1's input offset.
	counts := func(m reg.GPVirtual, c []reg.GPVirtual) {
		for i := range c {
			MOVQ(m, c[i])
			SHLQ(U8(48-16*i), c[i])
			POPCNTQ(c[i], c[i])
		}
	}
	top := AllocLocal(8) // srcEnd-16: the highest start of a lane's 16 bytes
	{
		t := gp()
		MOVQ(limit, t)
		ADDQ(U8(48), t)
		MOVQ(t, top)
	}
	// clamped makes the block of the mask m (64 bits, at tp) from s,
	// storing its halves by store, where a lane's 16 bytes may pass
	// srcEnd: such a lane takes the 16 before it (top), its indexes moved
	// up by the bytes between (they stay under 16 for the bytes the lane
	// takes: those are input bytes).
	clamped := func(m reg.GPVirtual, store func(h int, y reg.VecVirtual)) {
		for h := 0; h < 2; h++ {
			t, idx := indexes(h)
			lo, hi := clampLanes(s, top, idx, func(l int) reg.GPVirtual {
				i := 2*h + l
				if i == 0 {
					return nil
				}
				off := gp() // lane i's offset: the count of the mask's first 16i bits
				MOVQ(m, off)
				SHLQ(U8(64-16*i), off)
				POPCNTQ(off, off)
				return off
			})
			store(h, half(t, idx, lo, hi))
		}
	}
	toDst := func(h int, y reg.VecVirtual) { VMOVDQA(y, at(d, 32*h)) }
	first := AllocLocal(8) // the table's start, where tp wraps to
	MOVQ(tp, first)
	// The last mask made inline, its lanes' offsets and indexes: the
	// masks of dilations by one or three bytes (0x5555..., 0x1111...)
	// repeat from block to block.
	prev := gp()
	XORQ(prev, prev) // no mask: a clear one is the pattern's
	c := []reg.GPVirtual{gp(), gp(), gp()}
	var taken, idx [2]reg.VecVirtual
	for h := range 2 {
		taken[h], idx[h] = YMM(), YMM()
	}

	loop, zero, full, far, same, next := newLabel("expandb_loop"), newLabel("expandb_zero"), newLabel("expandb_full"), newLabel("expandb_far"), newLabel("expandb_same"), newLabel("expandb_next")
	tail, ret := newLabel("expandb_tail"), newLabel("expandb_ret")
	labels := expandLabels{loop, next, tail, ret, zero}
	m := gp()
	expandLoopHead(labels, far, same, n, tp, s, limit, m, prev)
	CMPQ(m, I8(-1))
	JE(LabelRef(full))
	MOVQ(m, prev)
	counts(m, c)
	for h := range 2 {
		t, i := indexes(h)
		VMOVDQA(t, taken[h])
		VMOVDQA(i, idx[h])
	}
	Label(same)
	toDst(0, half(taken[0], idx[0], at(s, 0), Mem{Base: s, Index: c[0], Scale: 1}))
	toDst(1, half(taken[1], idx[1], Mem{Base: s, Index: c[1], Scale: 1}, Mem{Base: s, Index: c[2], Scale: 1}))
	POPCNTQ(m, m)
	ADDQ(m, s)
	expandLoopEnd(labels, d, n, tp, end, first, m, ypat, clamped)
	Label(full) // a block of 64 input bytes (s <= limit)
	copyLine(d, s)
	JMP(LabelRef(next))
	Label(far) // a block whose 64 bytes from s would pass srcEnd
	clamped(m, toDst)
	POPCNTQ(m, m)
	ADDQ(m, s)
	JMP(LabelRef(next))
}

// clampLanes returns the starts of two 16-byte lanes of input, at s plus
// offset(0) and offset(1) (a register it may clobber, or nil for none),
// each moved down to top (srcEnd-16) where its 16 bytes would pass
// srcEnd, and adds to idx's two lanes how far each moved: the indexes of
// the bytes a lane takes stay under 16, for those are input bytes.
func clampLanes(s reg.Register, top Mem, idx reg.VecVirtual, offset func(l int) reg.GPVirtual) (Mem, Mem) {
	var p [2]reg.GPVirtual
	var q [2]reg.VecVirtual
	for l := range 2 {
		off := offset(l)
		p[l] = gp()
		if off == nil {
			off = gp()
			MOVQ(s, off)
		} else {
			ADDQ(s, off)
		}
		MOVQ(off, p[l])
		CMPQ(p[l], top)
		CMOVQHI(top, p[l])
		SUBQ(p[l], off) // how far the lane's start moved down
		q[l] = XMM()
		VMOVQ(off, q[l])
	}
	qy := YMM()
	VPBROADCASTB(q[0], qy)
	VPBROADCASTB(q[1], q[1])
	VINSERTI128(U8(1), q[1], qy, qy)
	VPADDB(qy, idx, idx)
	return at(p[0], 0), at(p[1], 0)
}

// copyOut copies the first n (< 64) bytes of buf to d, by pieces of 32,
// 16, 8, 4, 2 and 1 bytes: the partial last block of a kernel that has
// no masked byte store.
func copyOut(buf Mem, d, n reg.Register) {
	i := gp()
	XORQ(i, i)
	for _, w := range []int{32, 16, 8, 4, 2, 1} {
		skip := newLabel("copyout")
		TESTQ(U32(w), n)
		JZ(LabelRef(skip))
		from, to := buf.Idx(i, 1), Mem{Base: d, Index: i, Scale: 1}
		switch w {
		case 32:
			y := YMM()
			VMOVDQU(from, y)
			VMOVDQU(y, to)
		case 16:
			x := XMM()
			VMOVDQU(from, x)
			VMOVDQU(x, to)
		default:
			g := gp()
			mov := gprMove(w)
			mov(from, asWidth(g, w))
			mov(asWidth(g, w), to)
		}
		if w > 1 {
			ADDQ(U8(w), i)
		}
		Label(skip)
	}
}

// genRowsExpandHalves emits rowsExpandHalvesAVX2: rowsExpandBytesAVX2
// from a table of codes of 32-byte halves instead of masks, for tables
// whose halves take at most 256 distinct masks (halfTable: a dilation's,
// whose halves repeat a few masks at a few phases). Each half's code is
// the offset in dict of its mask's entry, its lanes' shuffle indexes
// (0x80 where the mask is clear, which VPBLENDVB takes as the pattern's),
// and the block's entry holds its lanes' input offsets too, read from one
// load (loads bound this loop: a load a field took 1.15x the time). A
// block whose mask differs from the last one then costs about 1.7-1.9 ns
// (16 KiB in L1 on a Zen 5), against 2.9 ns in rowsExpandBytesAVX2, which
// computes its indexes; a repeated one 1.2 ns in both, from registers
// (without that, 1.7 ns here, and new masks 0.9x the time).
func genRowsExpandHalves() {
	name := "rowsExpandHalvesAVX2"
	kernel(name, "func(dst, src *byte, n int, tab *[8]byte, entries int, dict *byte, pat *[32]byte, srcEnd uintptr)",
		name+" writes what rowsExpandBytesAVX2 writes with the mask of 64-byte",
		"block j given by tab[j%entries]: its bytes 0-1 and 2-3 (little-endian)",
		"are the offsets in dict of the 32-byte entries of its halves' masks, its",
		"bytes 4, 5 and 6 the counts of the mask's first 16, 32 and 48 bits, and",
		"byte 7 the count of all of them. An entry holds at byte i the count of",
		"the half's set bits below bit i within its 16-byte lane where bit i is",
		"set, and 0x80 where it is clear. A block whose tab entry is zero is the",
		"pattern. It reads 16 bytes from the first src byte of each lane (within",
		"srcEnd, as rowsExpandBytesAVX2 does).",
		"",
		"dst is 64-byte aligned, n >= 1, entries >= 1. It requires AVX2.")
	limit := srcLimitLocal(64)
	top := AllocLocal(8) // srcEnd-16: the highest start of a lane's 16 bytes
	{
		t := gp()
		MOVQ(limit, t)
		ADDQ(U8(48), t)
		MOVQ(t, top)
	}
	d := Load(Param("dst"), gp())
	s := Load(Param("src"), gp())
	n := Load(Param("n"), gp())
	tp := Load(Param("tab"), gp())
	end := AllocLocal(8)   // the table's end
	first := AllocLocal(8) // and its start, where tp wraps to
	{
		t := Load(Param("entries"), gp())
		SHLQ(U8(3), t) // 8 bytes a block
		ADDQ(tp, t)
		MOVQ(t, end)
		MOVQ(tp, first)
	}
	ypat := YMM()
	VMOVDQU(at(Load(Param("pat"), gp()), 0), ypat)

	// field returns bytes [at, at+w) of the entry e (one load of the
	// entry, not one a field: loads bound this loop).
	field := func(e reg.GPVirtual, at, w int, f reg.GPVirtual) reg.GPVirtual {
		if f == nil {
			f = gp()
		}
		MOVQ(e, f)
		if at > 0 {
			SHRQ(U8(8*at), f)
		}
		if w == 1 {
			MOVBQZX(f.As8(), f)
		} else {
			MOVWQZX(f.As16(), f)
		}
		return f
	}
	// half makes a half block from its lanes' input at lo and hi by its
	// indexes: the lanes shuffled, blended with the pattern where the
	// index's sign is set.
	half := func(idx reg.VecVirtual, lo, hi Mem) reg.VecVirtual {
		w := YMM()
		VBROADCASTI128(lo, w) // a write of all of w
		VINSERTI128(U8(1), hi, w, w)
		VPSHUFB(idx, w, w)
		VPBLENDVB(idx, ypat, w, w)
		return w
	}
	// clamped makes the block of the entry e from s, storing its halves by
	// store, where lanes' 16 bytes may pass srcEnd: those take the 16
	// before it (clampLanes). It adds the block's count to s.
	clamped := func(e reg.GPVirtual, store func(h int, y reg.VecVirtual)) {
		for h := range 2 {
			idx := YMM()
			VMOVDQU(Mem{Base: Load(Param("dict"), gp()), Index: field(e, 2*h, 2, nil), Scale: 1}, idx)
			lo, hi := clampLanes(s, top, idx, func(l int) reg.GPVirtual {
				if h+l == 0 {
					return nil
				}
				return field(e, 3+2*h+l, 1, nil) // the lane's offset: bytes 4, 5, 6
			})
			store(h, half(idx, lo, hi))
		}
		SHRQ(U8(56), e)
		ADDQ(e, s)
	}
	toDst := func(h int, y reg.VecVirtual) { VMOVDQA(y, at(d, 32*h)) }

	// The last entry made inline, its lanes' offsets and indexes: the
	// blocks of dilations by one or three bytes repeat theirs.
	prev := AllocLocal(8)
	MOVQ(U32(0), prev)                             // no entry: a clear block's is the pattern's
	off := []reg.GPVirtual{gp(), gp(), gp(), gp()} // the lanes' offsets, then the block's count
	idx := []reg.VecVirtual{YMM(), YMM()}

	loop, zero, far, same, next := newLabel("expandh_loop"), newLabel("expandh_zero"), newLabel("expandh_far"), newLabel("expandh_same"), newLabel("expandh_next")
	tail, ret := newLabel("expandh_tail"), newLabel("expandh_ret")
	labels := expandLabels{loop, next, tail, ret, zero}
	e := gp()
	expandLoopHead(labels, far, same, n, tp, s, limit, e, prev)
	MOVQ(e, prev)
	{
		dict := Load(Param("dict"), gp())
		for h := range 2 {
			VMOVDQU(Mem{Base: dict, Index: field(e, 2*h, 2, nil), Scale: 1}, idx[h])
		}
		for q := range 3 {
			field(e, 4+q, 1, off[q])
		}
		MOVQ(e, off[3])
		SHRQ(U8(56), off[3])
	}
	Label(same)
	toDst(0, half(idx[0], at(s, 0), Mem{Base: s, Index: off[0], Scale: 1}))
	toDst(1, half(idx[1], Mem{Base: s, Index: off[1], Scale: 1}, Mem{Base: s, Index: off[2], Scale: 1}))
	ADDQ(off[3], s)
	expandLoopEnd(labels, d, n, tp, end, first, e, ypat, clamped)
	Label(far) // a block whose 64 bytes from s would pass srcEnd
	clamped(e, toDst)
	JMP(LabelRef(next))
}

// expandLabels are the labels of an AVX2 byte expand kernel's loop: its
// top, the step to the next block, the partial last block, the return and
// the pattern blocks.
type expandLabels struct{ loop, next, tail, ret, zero string }

// expandLoopHead emits the top of the loop of the AVX2 byte expand
// kernels: to the partial last block under 64 bytes left, then each
// block's table entry loaded into e, a clear one to the pattern (l.zero),
// a block whose 64 bytes from s would pass limit to far, and an entry
// equal to the last one made (prev) to same.
func expandLoopHead(l expandLabels, far, same string, n, tp, s reg.Register, limit Op, e reg.GPVirtual, prev Op) {
	CMPQ(n, U8(64))
	JB(LabelRef(l.tail))
	alignLoop()
	Label(l.loop) // whole blocks
	MOVQ(at(tp, 0), e)
	TESTQ(e, e)
	JZ(LabelRef(l.zero))
	CMPQ(s, limit)
	JA(LabelRef(far))
	CMPQ(e, prev)
	JE(LabelRef(same))
}

// expandLoopEnd emits the end of the loop of the AVX2 byte expand kernels
// (rowsExpandBytesAVX2, rowsExpandHalvesAVX2), whose tables have 8 bytes a
// 64-byte block, and what follows it: the step to the next block (tp
// wraps from end to first), the partial last block (made by clamped from
// its table entry, loaded into e, on the stack, and copied out), the
// return and the blocks of the pattern.
func expandLoopEnd(l expandLabels, d, n, tp reg.Register, end, first Op, e reg.GPVirtual, ypat reg.VecVirtual, clamped func(e reg.GPVirtual, store func(h int, y reg.VecVirtual))) {
	Label(l.next)
	ADDQ(U8(8), tp)
	CMPQ(tp, end)
	CMOVQEQ(first, tp)
	ADDQ(U8(64), d)
	SUBQ(U8(64), n)
	CMPQ(n, U8(64))
	JAE(LabelRef(l.loop))

	Label(l.tail) // a partial block, made on the stack and copied
	TESTQ(n, n)
	JZ(LabelRef(l.ret))
	buf := AllocLocal(64)
	MOVQ(at(tp, 0), e)
	clamped(e, func(h int, y reg.VecVirtual) { VMOVDQU(y, buf.Offset(32*h)) })
	copyOut(buf, d, n)
	Label(l.ret)
	VZEROUPPER()
	RET()

	Label(l.zero) // a block of the pattern
	VMOVDQA(ypat, at(d, 0))
	VMOVDQA(ypat, at(d, 32))
	JMP(LabelRef(l.next))
}

// copyLine copies the 64 bytes at s to the line at d (64-byte aligned) by
// two 32-byte moves and steps s past them: the AVX2 expand kernels' blocks
// whose mask takes every byte.
func copyLine(d, s reg.Register) {
	y0, y1 := YMM(), YMM()
	VMOVDQU(at(s, 0), y0)
	VMOVDQU(at(s, 32), y1)
	VMOVDQA(y0, at(d, 0))
	VMOVDQA(y1, at(d, 32))
	ADDQ(U8(64), s)
}
