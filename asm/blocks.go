package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// blockEntry is the size of a block's entry in planeBlocksAVX2's table
// (chunks.go: blockEntry): its a and b indexes, then the src offsets of its
// two windows and its dst offset.
const blockEntry = 96

// genPlaneBlocks emits planeBlocksAVX2: the chunks kernel of CPUs without
// VBMI, for small planes of narrow rows that take no value (uint8 7x7
// edge-padded to 9x9: nine rows of nine bytes, a row at a time two stores
// by the narrow kernel). Each 32-byte block of the output plane is the OR
// of a VPSHUFB of each of two 16-byte windows of the input plane, each
// loaded into both lanes of a register (VBROADCASTI128, a load: a lane
// insert and a lane swap took two more shuffles, which bound the AVX2
// kernels): a block is two loads, three vector operations and a store
// whatever the rows inside it.
func genPlaneBlocks() {
	name := "planeBlocksAVX2"
	kernel(name, "func(dst, src *byte, planes, dstPlane, srcPlane int, tab *byte, blocks int)",
		name+" makes planes of blocks blocks of 32 bytes (blocks >= 1) by a",
		"table of 96-byte entries (chunks.go: blockTable): entry c holds a",
		"and b ([32]byte each), then lo, hi and at (int64 each). For planes p,",
		"with d = dst[p*dstPlane:] and s = src[p*srcPlane:], block c is at",
		"d[at:at+32] and takes byte k from pick(s[lo:lo+16], a[k]) |",
		"pick(s[hi:hi+16], b[k]); pick(w, x) is 0 if bit 7 of x is set, else",
		"w[x&15] (VPSHUFB). Blocks are made in order, so that a block",
		"may overlap the one before it. It reads s[lo:lo+16] and s[hi:hi+16]",
		"only and writes d[at:at+32] only; planes >= 1. It requires AVX2.")
	d := Load(Param("dst"), gp())
	s := Load(Param("src"), gp())
	planes := Load(Param("planes"), gp())
	tab := Load(Param("tab"), gp())
	blocks := Load(Param("blocks"), gp())

	planeLoop, blockLoop := newLabel("blocks_planes"), newLabel("blocks_loop")
	Label(planeLoop)
	t, c := gp(), gp()
	MOVQ(tab, t)
	MOVQ(blocks, c)
	Label(blockLoop)
	lo, hi, o := gp(), gp(), gp()
	MOVQ(at(t, 64), lo)
	MOVQ(at(t, 72), hi)
	MOVQ(at(t, 80), o)
	first, second := YMM(), YMM()
	VBROADCASTI128(ati(s, lo, 0), first)
	VBROADCASTI128(ati(s, hi, 0), second)
	VPSHUFB(at(t, 0), first, first)
	VPSHUFB(at(t, 32), second, second)
	VPOR(second, first, first)
	VMOVDQU(first, ati(d, o, 0))
	ADDQ(U8(blockEntry), t)
	DECQ(c)
	JNZ(LabelRef(blockLoop))

	ADDQ(paramMem("dstPlane"), d)
	ADDQ(paramMem("srcPlane"), s)
	DECQ(planes)
	JNZ(LabelRef(planeLoop))
	VZEROUPPER()
	RET()
}
