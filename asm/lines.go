package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// genRowsLines emits rowsLinesAVX512: output made as 64-byte-aligned
// blocks, each one VPERMI2B of the two aligned 64-byte input blocks it
// reads from, by a periodic table. Narrow rows that follow each other
// (suite case g: 116-byte rows) straddle a cache line at every row when
// stored row by row; here every store is one whole aligned line and every
// load one aligned line, carried from block to block. At this rate (a
// line per few cycles from L2) every instruction of the loop counts: the
// advance flag rides in the index bytes (VPERMI2B reads 7 bits of each)
// and the loop makes two blocks a turn.
func genRowsLines() {
	name := "rowsLinesAVX512"
	kernel(name, "func(dst, src *byte, cur, first, n int, tab *byte, entries int, head, tail uint64)",
		name+" makes n 64-byte blocks from dst rounded down to a multiple of",
		"64 by a periodic table of entries+2 entries of 64 indexes (the last",
		"two copies of the first two). The window of block j is",
		"the 128 bytes prev ++ cur of two aligned 64-byte blocks of src, at",
		"offsets first and cur from src for block 0; block j > 0 whose entry",
		"has bit 7 of its first index set moves the window on by 64 bytes.",
		"Block 0 is stored under the mask head, block n-1 under tail (both when",
		"n is 1), the others whole. (The line arithmetic is the kernel's, so",
		"that Go never holds a pointer outside dst's or src's allocation.)",
		"",
		"\tprev, cur := src[first:], src[cur:]\n\tfor j := 0; j < n; j++ {\n\t\tx := tab[64*(j%entries):][:64]\n\t\tif j > 0 && x[0]&0x80 != 0 {\n\t\t\tprev, cur = cur, cur[64:]\n\t\t}\n\t\tfor i := 0; i < 64; i++ {\n\t\t\tif stored(j, i) {\n\t\t\t\tif k := x[i] & 127; k < 64 {\n\t\t\t\t\tdst[64*j+i] = prev[k]\n\t\t\t\t} else {\n\t\t\t\t\tdst[64*j+i] = cur[k-64]\n\t\t\t\t}\n\t\t\t}\n\t\t}\n\t}",
		"",
		"src+first and src+cur are 64-byte aligned, n >= 1, entries >= 2. It requires",
		"AVX-512 F, BW and VBMI.")
	d := Load(Param("dst"), gp())
	ANDQ(I32(-64), d)
	s, first := Load(Param("src"), gp()), gp()
	MOVQ(s, first)
	ADDQ(Load(Param("first"), gp()), first)
	ADDQ(Load(Param("cur"), gp()), s) // s steps on from the window's second block
	n := Load(Param("n"), gp())
	tab := Load(Param("tab"), gp())
	entries := Load(Param("entries"), gp())
	head, tail := kreg(), kreg()
	KMOVQ(Load(Param("head"), gp()), head)
	KMOVQ(Load(Param("tail"), gp()), tail)

	prev, cur, blk := ZMM(), ZMM(), ZMM()
	VMOVDQA64(at(first, 0), prev)
	VMOVDQA64(at(s, 0), cur)
	VMOVDQU64(at(tab, 0), blk)
	VPERMI2B(cur, prev, blk) // blk = (prev ++ cur)[blk & 127]

	more, ret := newLabel("lines_more"), newLabel("lines_ret")
	CMPQ(n, U8(1))
	JNE(LabelRef(more))
	KANDQ(head, tail, head)
	VMOVDQU8(blk, head, at(d, 0))
	JMP(LabelRef(ret))

	Label(more)
	VMOVDQU8(blk, head, at(d, 0))
	// Blocks 1, 2, ... take entries 1, 2, ..., two a turn; a pair that
	// starts at entries (the copy of entry 0) or beyond moves back by
	// the period (span bytes): an odd period's pairs run over its end
	// into the copy of entry 1 (tables a period long, not two: suite case
	// g's four tables of 29 entries stay in L1 between planes).
	end, span, tp := gp(), gp(), gp()
	MOVQ(entries, span)
	SHLQ(U8(6), span)
	LEAQ(Mem{Base: tab, Index: span, Scale: 1, Disp: 64}, end)
	LEAQ(at(tab, 64), tp)
	ADDQ(U8(64), d)
	DECQ(n) // the blocks after the first, the last stored under tail

	// block makes the block of the entry at tp+off and stores it at
	// d+off, whole or under tail.
	block := func(off int, last bool) {
		noAdv := newLabel("lines_noadv")
		TESTB(U8(0x80), at(tp, off))
		JZ(LabelRef(noAdv))
		VMOVDQA64(cur, prev)
		ADDQ(U8(64), s)
		VMOVDQA64(at(s, 0), cur)
		Label(noAdv)
		VMOVDQU64(at(tp, off), blk)
		VPERMI2B(cur, prev, blk)
		if last {
			VMOVDQU8(blk, tail, at(d, off))
		} else {
			VMOVDQA64(blk, at(d, off))
		}
	}
	pairs, single, last := newLabel("lines_pairs"), newLabel("lines_single"), newLabel("lines_last")
	CMPQ(n, U8(3))
	JB(LabelRef(single))
	Label(pairs) // while 3 or more are left, two whole blocks
	block(0, false)
	block(64, false)
	ADDQ(U32(128), tp)
	back := gp()
	MOVQ(tp, back)
	SUBQ(span, back)
	CMPQ(tp, end)
	CMOVQCC(back, tp)
	ADDQ(U32(128), d)
	SUBQ(U8(2), n)
	CMPQ(n, U8(3))
	JAE(LabelRef(pairs))

	Label(single) // 1 or 2 left
	CMPQ(n, U8(1))
	JE(LabelRef(last))
	block(0, false)
	ADDQ(U8(64), tp) // at most the copy of entry 1
	ADDQ(U8(64), d)
	Label(last)
	block(0, true)
	Label(ret)
	VZEROUPPER()
	RET()
}
