package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// chunksMax is the most blocks of a plane the chunks kernel makes (its
// tables live in registers).
const chunksMax = 8

// genPlaneChunks emits planeChunksAVX512: planes of at most 128 bytes of
// input and 2 to chunksMax blocks of 64 bytes of output that take no
// value, each block one permutation of the whole input plane, which is
// loaded once a plane.
func genPlaneChunks() {
	name := "planeChunksAVX512"
	kernel(name, "func(dst, src *byte, planes, dstPlane, srcPlane int, tab *byte, chunks, last, inLen int)",
		name+" makes planes of chunks blocks of 64 bytes (2 <= chunks <= "+fmt.Sprint(chunksMax)+"),",
		"block c at byte 64*c of the output plane but the last at byte last",
		"(64*(chunks-2) < last <= 64*(chunks-1): it may overlap the block before,",
		"which must agree there), each byte i of block c taken from byte",
		"tab[64*c+i] (below inLen) of the plane's input, which is read under",
		"masks, src[p*srcPlane:][:inLen], 1 <= inLen <= 128:",
		"",
		"\tfor p := 0; p < planes; p++ {\n\t\td := dst[p*dstPlane:]\n\t\ts := src[p*srcPlane:]\n"+
			"\t\tfor c := 0; c < chunks; c++ {\n\t\t\to := 64 * c\n\t\t\tif c == chunks-1 {\n\t\t\t\to = last\n\t\t\t}\n"+
			"\t\t\tfor i := 0; i < 64; i++ {\n\t\t\t\td[o+i] = s[tab[64*c+i]]\n\t\t\t}\n\t\t}\n\t}",
		"",
		"It requires AVX-512 F, BW and VBMI.")
	d := Load(Param("dst"), gp())
	s := Load(Param("src"), gp())
	planes := Load(Param("planes"), gp())
	tab := Load(Param("tab"), gp())
	chunks := Load(Param("chunks"), gp())
	last := Load(Param("last"), gp())
	inLen := Load(Param("inLen"), gp())

	ret := newLabel("chunks_ret")
	TESTQ(planes, planes)
	JZ(LabelRef(ret))

	// The masks of the input plane's first 64 bytes and the rest.
	tbl, a := gp(), gp()
	LEAQ(maskTable, tbl)
	MOVQ(U32(64), a)
	CMPQ(inLen, a)
	CMOVQLT(inLen, a) // a = min(inLen, 64)
	SUBQ(a, inLen)
	kLo, kHi := kreg(), kreg()
	KMOVQ(Mem{Base: tbl, Index: a, Scale: 8}, kLo)
	KMOVQ(Mem{Base: tbl, Index: inLen, Scale: 8}, kHi)

	// One loop a block count, its tables in registers: loading a block's
	// indexes with it made the kernel take about 1.4x as long.
	labels := make([]string, chunksMax+1)
	for c := 2; c <= chunksMax; c++ {
		labels[c] = newLabel(fmt.Sprintf("chunks_%d", c))
		CMPQ(chunks, U8(c))
		JE(LabelRef(labels[c]))
	}
	JMP(LabelRef(ret))
	for c := 2; c <= chunksMax; c++ {
		Label(labels[c])
		idx := make([]reg.VecVirtual, c)
		for j := range idx {
			idx[j] = ZMM()
			VMOVDQU64(at(tab, 64*j), idx[j])
		}
		loop := newLabel(fmt.Sprintf("chunks_%d_planes", c))
		Label(loop)
		lo, hi := ZMM(), ZMM()
		VMOVDQU8_Z(at(s, 0), kLo, lo)
		VMOVDQU8_Z(at(s, 64), kHi, hi)
		for j := range idx {
			p := ZMM()
			VMOVDQA64(idx[j], p)
			VPERMI2B(hi, lo, p)
			if j == c-1 {
				VMOVDQU64(p, ati(d, last, 0))
			} else {
				VMOVDQU64(p, at(d, 64*j))
			}
		}
		ADDQ(paramMem("dstPlane"), d)
		ADDQ(paramMem("srcPlane"), s)
		DECQ(planes)
		JNZ(LabelRef(loop))
		VZEROUPPER()
		RET()
	}
	Label(ret)
	RET()
}
