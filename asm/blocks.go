package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// blockEntry is the size of a block's entry in planeBlocksAVX2's table
// (chunks.go: blockEntry), 1<<blockEntryShift: its a and b indexes, its
// value indexes v, then the src offsets of its two windows and its dst
// offset.
const (
	blockEntry      = 128
	blockEntryShift = 7
)

// genPlaneBlocks emits planeBlocksAVX2: the chunks kernel of CPUs without
// VBMI, for small planes of narrow rows (uint8 7x7 edge-padded to 9x9:
// nine rows of nine bytes, a row at a time two stores by the narrow
// kernel). Each 32-byte block of the output plane is the OR of a VPSHUFB
// of each of two 16-byte windows of the input plane, each loaded into
// both lanes of a register (VBROADCASTI128, a load: a lane insert and a
// lane swap took two more shuffles, which bound the AVX2 kernels): a
// block is two loads, three vector operations (four with a value) and a
// store whatever the rows inside it.
//
// The planes go in batches of at most batch planes, and a batch block by
// block: a block's indexes and offsets are loaded once a batch and kept in
// registers while it is made in each plane of the batch, four planes an
// iteration. Loading them for every block of every plane (five loads a
// block besides its two windows and its store) took 1.5-1.8x the time:
// on the Zen 5 the loads and stores, not the shuffles, bound the loop.
func genPlaneBlocks() {
	name := "planeBlocksAVX2"
	kernel(name, "func(dst, src *byte, planes, dstPlane, srcPlane int, tab *byte, blocks, batch int, pat *[32]byte)",
		name+" makes planes of blocks blocks of 32 bytes (blocks >= 1) by a",
		"table of 128-byte entries (chunks.go: blockTable): entry c holds a, b",
		"and v ([32]byte each), then lo, hi and at (int64 each). For planes p,",
		"with d = dst[p*dstPlane:] and s = src[p*srcPlane:], block c is at",
		"d[at:at+32] and takes byte k from pick(s[lo:lo+16], a[k]) |",
		"pick(s[hi:hi+16], b[k]), ORed with pick(pat[0:16], v[k]) if pat is",
		"not nil; pick(w, x) is 0 if bit 7 of x is set, else w[x&15]",
		"(VPSHUFB). Blocks are made in order in each plane, so that a block may",
		"overlap the one before it; planes do not overlap in dst. The planes go",
		"in batches of batch planes (batch >= 1), each batch a block at a time.",
		"It reads s[lo:lo+16] and s[hi:hi+16] only and writes d[at:at+32] only;",
		"planes >= 1. It requires AVX2.")
	d := Load(Param("dst"), gp())
	s := Load(Param("src"), gp())
	dPlane := Load(Param("dstPlane"), gp())
	sPlane := Load(Param("srcPlane"), gp())
	end := Load(Param("blocks"), gp())
	SHLQ(U8(blockEntryShift), end)
	ADDQ(paramMem("tab"), end) // past the table's last entry
	left := AllocLocal(8)      // the planes from this batch on
	{
		t := Load(Param("planes"), gp())
		MOVQ(t, left)
	}
	// Planes that take a nonzero value OR it into each block: its bytes
	// for the block are one shuffle of the pattern by the block's v,
	// made once a batch like the block's indexes (a loop of its own, so
	// that the others pay nothing for it).
	pat := YMM()
	value := newLabel("blocks_value")
	{
		p := Load(Param("pat"), gp())
		TESTQ(p, p)
		JNZ(LabelRef(value))
	}
	planeBlocksLoops(d, s, dPlane, sPlane, end, left, nil)
	Label(value)
	{
		p := Load(Param("pat"), gp())
		VBROADCASTI128(at(p, 0), pat)
	}
	planeBlocksLoops(d, s, dPlane, sPlane, end, left, pat)
}

// planeBlocksLoops emits planeBlocksAVX2's loops over batches, blocks and
// planes, and its return; pat, if not nil, holds the value's pattern in
// both lanes.
func planeBlocksLoops(d, s, dPlane, sPlane, end reg.Register, left Mem, pat reg.VecVirtual) {
	batchLoop, blockLoop := newLabel("blocks_batch"), newLabel("blocks_block")
	even, nextBlock := newLabel("blocks_even"), newLabel("blocks_next")
	Label(batchLoop)
	n, e := gp(), gp()
	Load(Param("batch"), n)
	CMPQ(n, left)
	CMOVQGT(left, n) // n = min(batch, left)
	Load(Param("tab"), e)

	Label(blockLoop)
	a, b := YMM(), YMM()
	VMOVDQU(at(e, 0), a)
	VMOVDQU(at(e, 32), b)
	var v reg.VecVirtual
	if pat != nil {
		v = YMM()
		VPSHUFB(at(e, 64), pat, v)
	}
	sp, off, off2, dp, m := gp(), gp(), gp(), gp(), gp()
	MOVQ(at(e, 96), sp)
	MOVQ(at(e, 104), off)
	SUBQ(sp, off) // the second window from the first
	ADDQ(s, sp)
	LEAQ(ati(off, sPlane, 0), off2) // the next plane's second window from this one's first
	MOVQ(at(e, 112), dp)
	ADDQ(d, dp)
	MOVQ(n, m)
	block := func(first, second Mem, out Mem) {
		f, g := YMM(), YMM()
		VBROADCASTI128(first, f)
		VBROADCASTI128(second, g)
		VPSHUFB(a, f, f)
		VPSHUFB(b, g, g)
		VPOR(g, f, f)
		if v != nil {
			VPOR(v, f, f)
		}
		VMOVDQU(f, out)
	}
	// An odd plane first.
	TESTQ(U32(1), m)
	JZ(LabelRef(even))
	block(at(sp, 0), ati(sp, off, 0), at(dp, 0))
	ADDQ(sPlane, sp)
	ADDQ(dPlane, dp)
	DECQ(m)
	JZ(LabelRef(nextBlock))
	pair := func() {
		block(at(sp, 0), ati(sp, off, 0), at(dp, 0))
		block(ati(sp, sPlane, 0), ati(sp, off2, 0), ati(dp, dPlane, 0))
		LEAQ(Mem{Base: sp, Index: sPlane, Scale: 2}, sp)
		LEAQ(Mem{Base: dp, Index: dPlane, Scale: 2}, dp)
	}
	// Then a pair where two remain past a multiple of four, then four
	// planes an iteration (0.86-1.01x the time of two, median 0.96x, over
	// 48 uint8 and int16 geometries at the AVX2 level, in process).
	Label(even)
	quads := newLabel("blocks_quads")
	TESTQ(U32(2), m)
	JZ(LabelRef(quads))
	pair()
	SUBQ(U8(2), m)
	JZ(LabelRef(nextBlock))
	Label(quads)
	pair()
	pair()
	SUBQ(U8(4), m)
	JNZ(LabelRef(quads))
	Label(nextBlock)
	ADDQ(U8(blockEntry), e)
	CMPQ(e, end)
	JNE(LabelRef(blockLoop))

	// The next batch.
	t := gp()
	MOVQ(n, t)
	IMULQ(dPlane, t)
	ADDQ(t, d)
	IMULQ(sPlane, n)
	ADDQ(n, s)
	Load(Param("batch"), t)
	SUBQ(t, left)
	JG(LabelRef(batchLoop))
	VZEROUPPER()
	RET()
}
