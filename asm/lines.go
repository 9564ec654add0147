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
// load one aligned line, carried from block to block.
func genRowsLines() {
	name := "rowsLinesAVX512"
	kernel(name, "func(dst, src, first *byte, n int, tab *byte, period int, head, tail uint64)",
		name+" makes n 64-byte blocks at dst (64-byte aligned) by a periodic",
		"table of period entries: 64 indexes each, then one advance flag each.",
		"The window of block j is the 128 bytes prev ++ cur of two aligned",
		"64-byte blocks of src, first ++ src for block 0; block j > 0 with the",
		"flag of entry j%period set moves the window on by 64 bytes. Block 0",
		"is stored under the mask head, block n-1 under tail (both when n is",
		"1), the others whole:",
		"",
		"\tprev, cur := first, src\n\tfor j := 0; j < n; j++ {\n\t\te := j % period\n\t\tif j > 0 && tab[64*period+e] != 0 {\n\t\t\tprev, cur = cur, cur[64:]\n\t\t}\n\t\tfor i := 0; i < 64; i++ {\n\t\t\tif stored(j, i) {\n\t\t\t\tif k := tab[64*e+i]; k < 64 {\n\t\t\t\t\tdst[64*j+i] = prev[k]\n\t\t\t\t} else {\n\t\t\t\t\tdst[64*j+i] = cur[k-64]\n\t\t\t\t}\n\t\t\t}\n\t\t}\n\t}",
		"",
		"first and src are 64-byte aligned, n >= 1, every index below 128. It",
		"requires AVX-512 F, BW and VBMI.")
	d := Load(Param("dst"), gp())
	s := Load(Param("src"), gp())
	first := Load(Param("first"), gp())
	n := Load(Param("n"), gp())
	tab := Load(Param("tab"), gp())
	period := Load(Param("period"), gp())
	head, tail := kreg(), kreg()
	KMOVQ(Load(Param("head"), gp()), head)
	KMOVQ(Load(Param("tail"), gp()), tail)

	prev, cur, blk := ZMM(), ZMM(), ZMM()
	VMOVDQA64(at(first, 0), prev)
	VMOVDQA64(at(s, 0), cur)
	VMOVDQU64(at(tab, 0), blk)
	VPERMI2B(cur, prev, blk) // blk = (prev ++ cur)[blk]
	adv := gp()              // the advance flags
	MOVQ(period, adv)
	SHLQ(U8(6), adv)
	ADDQ(tab, adv)
	e, tp := gp(), gp()
	XORQ(e, e)
	MOVQ(tab, tp)

	more, ret := newLabel("lines_more"), newLabel("lines_ret")
	CMPQ(n, U8(1))
	JNE(LabelRef(more))
	KANDQ(head, tail, head)
	VMOVDQU8(blk, head, at(d, 0))
	JMP(LabelRef(ret))

	Label(more)
	VMOVDQU8(blk, head, at(d, 0))
	DECQ(n) // the blocks after the first
	loop, noWrap, noAdv, last := newLabel("lines_loop"), newLabel("lines_nowrap"), newLabel("lines_noadv"), newLabel("lines_last")
	Label(loop)
	ADDQ(U8(64), d)
	ADDQ(U8(64), tp)
	INCQ(e)
	CMPQ(e, period)
	JNE(LabelRef(noWrap))
	XORQ(e, e)
	MOVQ(tab, tp)
	Label(noWrap)
	CMPB(Mem{Base: adv, Index: e, Scale: 1}, U8(0))
	JE(LabelRef(noAdv))
	VMOVDQA64(cur, prev)
	ADDQ(U8(64), s)
	VMOVDQA64(at(s, 0), cur)
	Label(noAdv)
	VMOVDQU64(at(tp, 0), blk)
	VPERMI2B(cur, prev, blk)
	DECQ(n)
	JZ(LabelRef(last))
	VMOVDQA64(blk, at(d, 0))
	JMP(LabelRef(loop))

	Label(last)
	VMOVDQU8(blk, tail, at(d, 0))
	Label(ret)
	VZEROUPPER()
	RET()
}
