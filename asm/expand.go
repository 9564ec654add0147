package main

import (
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
// and the loop makes four blocks a turn.
func genRowsExpand() {
	name := "rowsExpandAVX512"
	kernel(name, "func(dst, src *byte, n int, tab *uint64, entries int, pat *[32]byte)",
		name+" writes n bytes to dst, 64-byte block j (the last one partial",
		"when n is not a multiple of 64) by the mask tab[j%entries]: each byte",
		"whose bit is set takes the next src byte, the others the pattern.",
		"tab holds entries+3 masks, the last three copies of the first three.",
		"It reads exactly the src bytes it takes:",
		"",
		"\ts := 0\n\tfor o := 0; o < n; o++ {\n\t\tif tab[o/64%entries]>>(o%64)&1 != 0 {\n\t\t\tdst[o] = src[s]\n\t\t\ts++\n\t\t} else {\n\t\t\tdst[o] = pat[o%32]\n\t\t}\n\t}",
		"",
		"dst is 64-byte aligned, n >= 1, entries >= 4. It requires AVX-512 F,",
		"BW and VBMI2.")
	d := Load(Param("dst"), gp())
	s := Load(Param("src"), gp())
	n := Load(Param("n"), gp())
	tp := Load(Param("tab"), gp())
	span := Load(Param("entries"), gp())
	SHLQ(U8(3), span) // the table's period in bytes
	end := gp()
	LEAQ(Mem{Base: tp, Index: span, Scale: 1}, end)
	zpat := ZMM()
	VBROADCASTI64X4(at(Load(Param("pat"), gp()), 0), zpat)

	// wrap moves tp back by a period once it has passed the period's end
	// (the copies after it cover the entries read meanwhile; entries >= 4
	// puts it back inside the period).
	wrap := func() {
		t := gp()
		MOVQ(tp, t)
		SUBQ(span, t)
		CMPQ(tp, end)
		CMOVQCC(t, tp)
	}
	// block makes the block at d+off by mask m (a general register,
	// clobbered) and stores it whole, or under store when not nil.
	block := func(m reg.GPVirtual, off int, store reg.OpmaskVirtual) {
		k, z := kreg(), ZMM()
		KMOVQ(m, k)
		POPCNTQ(m, m)
		VMOVDQA64(zpat, z)
		VPEXPANDB(at(s, 0), k, z) // reads popcount(m) bytes only
		ADDQ(m, s)
		if store == nil {
			VMOVDQA64(z, at(d, off))
		} else {
			VMOVDQU8(z, store, at(d, off))
		}
	}

	quads, singles, tail, ret := newLabel("expand_quads"), newLabel("expand_singles"), newLabel("expand_tail"), newLabel("expand_ret")
	CMPQ(n, U32(256))
	JB(LabelRef(singles))
	Label(quads) // while 256 or more bytes are left, four whole blocks
	{
		ms := []reg.GPVirtual{GP64(), GP64(), GP64(), GP64()}
		for i, m := range ms {
			MOVQ(at(tp, 8*i), m)
		}
		for i, m := range ms {
			block(m, 64*i, nil)
		}
		ADDQ(U8(32), tp)
		wrap()
		ADDQ(U32(256), d)
		SUBQ(U32(256), n)
		CMPQ(n, U32(256))
		JAE(LabelRef(quads))
	}
	Label(singles) // whole blocks left
	CMPQ(n, U8(64))
	JB(LabelRef(tail))
	{
		m := GP64()
		MOVQ(at(tp, 0), m)
		block(m, 0, nil)
		ADDQ(U8(8), tp)
		wrap()
		ADDQ(U8(64), d)
		SUBQ(U8(64), n)
		JMP(LabelRef(singles))
	}
	Label(tail) // a partial block: its mask cut at n
	TESTQ(n, n)
	JZ(LabelRef(ret))
	{
		k := kreg()
		lowMask(n, k)
		m, cut := GP64(), GP64()
		KMOVQ(k, cut)
		MOVQ(at(tp, 0), m)
		ANDQ(cut, m)
		block(m, 0, k)
	}
	Label(ret)
	VZEROUPPER()
	RET()
}
