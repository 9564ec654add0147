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

// genPlaneChunks emits planeChunksAVX512: planes of at most 256 bytes of
// input and 2 to chunksMax blocks of 64 bytes of output that take no
// value, each block one or two permutations of the whole input plane,
// which is loaded once a plane.
func genPlaneChunks() {
	name := "planeChunksAVX512"
	kernel(name, "func(dst, src *byte, planes, dstPlane, srcPlane int, tab *byte, chunks, last, inLen int)",
		name+" makes planes of chunks blocks of 64 bytes (2 <= chunks <= "+fmt.Sprint(chunksMax)+"),",
		"block c at byte 64*c of the output plane but the last at byte last",
		"(64*(chunks-2) < last <= 64*(chunks-1): it may overlap the block before,",
		"which must agree there), each byte i of block c taken from byte",
		"tab[64*c+i] (below inLen) of the plane's input src[p*srcPlane:][:inLen],",
		"1 <= inLen <= 256, which is read whole, as 128 or 256 bytes where those",
		"end in the page of the call's last input byte, else up to its last byte:",
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

	wideIn := newLabel("chunks_wide_in")
	CMPQ(inLen, U32(128))
	JA(LabelRef(wideIn))
	planeChunksLoops(d, s, planes, tab, chunks, last, inLen, ret, false)
	Label(wideIn)
	planeChunksLoops(d, s, planes, tab, chunks, last, inLen, ret, true)
	Label(ret)
	RET()
}

// planeChunksLoops emits the chunks kernel's loops for input planes of at
// most 128 bytes (two vectors, one VPERMI2B a block) or, wideIn, of 129 to
// 256 (four vectors: a block is a VPERMI2B of the first two and one of the
// last two, blended by bit 7 of its indexes).
func planeChunksLoops(d, s, planes, tab, chunks, last, inLen reg.Register, ret string, wideIn bool) {
	// A plane's input is loaded as whole vectors while they end in the
	// page of the call's last input byte (s <= limit), bytes past inLen
	// that no index takes included, else by rotatedLoads: on a Zen 5
	// masked loads of every plane made uint8 [1, 512, 7, 7] planes
	// reflected by 3 in 1.1x the time.
	vecs := 2
	if wideIn {
		vecs = 4
	}
	limit := gp()
	MOVQ(planes, limit)
	DECQ(limit)
	IMULQ(paramMem("srcPlane"), limit)
	ADDQ(s, limit)
	ADDQ(inLen, limit)
	DECQ(limit)                 // the call's last input byte
	ORQ(U32(4095), limit)       // its page's last byte
	SUBQ(U32(64*vecs-1), limit) // the last address whose vectors end there

	// The rotation of rotatedLoads, iota-inLen, once a call.
	rot := ZMM()
	{
		t := gp()
		MOVQ(inLen, t)
		NEGQ(t)
		byteRamp(t, iota64, rot)
	}

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
		var in [4]reg.VecVirtual
		for i := range in {
			in[i] = ZMM()
		}
		blocks := func() {
			for j := range idx {
				p := ZMM()
				VMOVDQA64(idx[j], p)
				VPERMI2B(in[1], in[0], p)
				if wideIn {
					q, k := ZMM(), kreg()
					VMOVDQA64(idx[j], q)
					VPERMI2B(in[3], in[2], q)
					VPMOVB2M(idx[j], k) // bit 7: the byte is from the last 128
					VPBLENDMB(q, p, k, p)
				}
				if j == c-1 {
					VMOVDQU64(p, ati(d, last, 0))
				} else {
					VMOVDQU64(p, at(d, 64*j))
				}
			}
		}
		loop, lastPlane := newLabel(fmt.Sprintf("chunks_%d_planes", c)), newLabel(fmt.Sprintf("chunks_%d_last", c))
		DECQ(planes)
		JZ(LabelRef(lastPlane))
		alignLoop() // without, the loop took 1.14x as long (KERNELS.md item 16)
		whole := func() {
			for i := range vecs {
				VMOVDQU64(at(s, 64*i), in[i])
			}
		}
		near, loaded := newLabel(fmt.Sprintf("chunks_%d_near", c)), newLabel(fmt.Sprintf("chunks_%d_loaded", c))
		Label(loop)
		CMPQ(s, limit)
		JA(LabelRef(near))
		whole()
		Label(loaded)
		blocks()
		ADDQ(paramMem("dstPlane"), d)
		ADDQ(paramMem("srcPlane"), s)
		DECQ(planes)
		JNZ(LabelRef(loop))
		Label(lastPlane)
		chunksLastLoads(s, limit, rot, in, wideIn, whole)
		blocks()
		VZEROUPPER()
		RET()
		Label(near) // out of the loop: the planes near the input's end
		rotatedLoads(s, rot, in, wideIn)
		JMP(LabelRef(loaded))
	}
}

// chunksLastLoads loads the input of the call's last plane into in: as
// whole vectors (whole) when they end in the page of its last byte (s <=
// limit), else by rotatedLoads.
func chunksLastLoads(s, limit reg.Register, rot reg.VecVirtual, in [4]reg.VecVirtual, wideIn bool, whole func()) {
	rotated, done := newLabel("chunks_rotated"), newLabel("chunks_loaded")
	CMPQ(s, limit)
	JA(LabelRef(rotated))
	whole()
	JMP(LabelRef(done))
	Label(rotated)
	rotatedLoads(s, rot, in, wideIn)
	Label(done)
}

// rotatedLoads loads the plane's input at s into in as whole vectors up to
// the one that holds its last byte, which is the 64 bytes that end there
// (in that page) rotated into place by rot (the index iota-inLen, mod 64),
// and zeros after it: no byte past the plane's input is read, so no load
// reaches past the page of the call's last input byte. A masked load
// whose masked bytes lie in a page that is not present costs a microcode
// assist of about 190 ns on a Zen 5 (KERNELS.md item 7), at each of the
// last planes whose vectors would reach past it.
func rotatedLoads(s reg.Register, rot reg.VecVirtual, in [4]reg.VecVirtual, wideIn bool) {
	n := gp()
	Load(Param("inLen"), n)
	w := gp() // the 64 bytes that end at the last
	LEAQ(Mem{Base: s, Index: n, Scale: 1, Disp: -64}, w)
	first := 0 // the vectors before the pair
	if wideIn {
		first = 2
		VMOVDQU64(at(s, 0), in[0])
		VMOVDQU64(at(s, 64), in[1])
	}
	// The last byte is in vector first (n <= 64*first+64) or first+1.
	upper, done := newLabel("chunks_upper"), newLabel("chunks_rotated_done")
	CMPQ(n, U32(64*first+64))
	JA(LabelRef(upper))
	VPERMB(at(w, 0), rot, in[first])
	VPXORQ(in[first+1], in[first+1], in[first+1])
	JMP(LabelRef(done))
	Label(upper)
	VMOVDQU64(at(s, 64*first), in[first])
	VPERMB(at(w, 0), rot, in[first+1])
	Label(done)
}
