package main

import (
	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// isa is the vector instruction set a kernel is generated for.
type isa struct {
	name string // "AVX2", "AVX512" or "StreamAVX512": the kernel name suffix
	V    int    // vector width in bytes: 32 (YMM) or 64 (ZMM)
	// stream: the aligned loops store with VMOVNTDQ, which writes whole
	// cache lines to memory without reading them first or keeping them
	// in cache (outputs larger than the cache). Those stores are weakly
	// ordered: the caller ends a run of such calls with storeFence
	// (SFENCE), once, as a fence per call measured 13% slower on a batch
	// of images whose planes take seven calls each (suite case b).
	stream bool
}

var (
	avx2         = isa{name: "AVX2", V: 32}
	avx512       = isa{name: "AVX512", V: 64}
	avx512Stream = isa{name: "StreamAVX512", V: 64, stream: true}
)

func (a isa) vec() reg.VecVirtual {
	if a.V == 64 {
		return ZMM()
	}
	return YMM()
}

// load and store move one full vector without a mask.
func (a isa) load(m Mem, v reg.Register) {
	if a.V == 64 {
		VMOVDQU64(m, v)
	} else {
		VMOVDQU(m, v)
	}
}

func (a isa) store(v reg.Register, m Mem) {
	if a.V == 64 {
		VMOVDQU64(v, m)
	} else {
		VMOVDQU(v, m)
	}
}

// storeAligned stores one full vector to a V-aligned address (an aligned
// move, which faults if it is not): a streaming store for a stream isa.
func (a isa) storeAligned(v reg.Register, m Mem) {
	switch {
	case a.stream:
		VMOVNTDQ(v, m)
	case a.V == 64:
		VMOVDQA64(v, m)
	default:
		VMOVDQA(v, m)
	}
}

// genStoreFence emits storeFence, which orders the streaming stores made
// before it before every store after it: the Go memory model assumes x86's
// store order, which streaming stores do not keep.
func genStoreFence() {
	kernel("storeFence", "func()",
		"storeFence orders the streaming stores of the stream kernels made before",
		"it before every store after it (SFENCE). It requires SSE.")
	SFENCE()
	RET()
}

// genCPUID emits cpuid, which the package reads the last-level cache's
// size with (pad_amd64.go).
func genCPUID() {
	kernel("cpuid", "func(leaf, sub uint32) (a, b, c, d uint32)",
		"cpuid returns the registers CPUID sets for leaf and subleaf sub.")
	Load(Param("leaf"), reg.EAX)
	Load(Param("sub"), reg.ECX)
	CPUID()
	Store(reg.EAX, Return("a"))
	Store(reg.EBX, Return("b"))
	Store(reg.ECX, Return("c"))
	Store(reg.EDX, Return("d"))
	RET()
}

// streamDoc is the doc line of a stream kernel, empty otherwise.
func streamDoc(a isa) string {
	if !a.stream {
		return ""
	}
	return "Its aligned stores are streaming stores (VMOVNTDQ), which do not keep\n" +
		"the output in cache (for outputs larger than the cache) and are weakly\n" +
		"ordered: call storeFence before other goroutines may read dst. "
}

// feature is the CPU feature line of the doc comments.
func (a isa) feature() string {
	if a.stream {
		return streamDoc(a) + avx512.feature()
	}
	if a.V == 64 {
		return "It requires AVX-512 F and BW. It also uses AVX-512 VL (EVEX forms on\n" +
			"XMM/YMM) and AVX2, which every AVX-512 BW CPU has."
	}
	return "It requires AVX2."
}

// at is the memory operand base+disp; ati is base+idx+disp.
func at(base reg.Register, disp int) Mem { return Mem{Base: base, Disp: disp} }

func ati(base, idx reg.Register, disp int) Mem {
	return Mem{Base: base, Index: idx, Scale: 1, Disp: disp}
}

func gp() reg.GPVirtual { return GP64() }

// ladder dispatches on 0 <= n < top (top a power of two): for the largest
// power of two W <= n, with W among top/2, top/4, ..., minW, it emits body(W),
// which must handle every n in [W, 2W); n < minW (n == 0 when n is a multiple
// of minW) does nothing. Control continues after the ladder.
func ladder(n reg.Register, top, minW int, body func(W int)) {
	done := newLabel("ladder_done")
	var ws []int
	for w := top / 2; w >= minW; w /= 2 {
		ws = append(ws, w)
	}
	labels := make([]string, len(ws))
	for i, w := range ws {
		labels[i] = newLabel("ladder")
		if i == len(ws)-1 {
			// smallest: n in [w, 2w) or n < w (nothing to do)
			CMPQ(n, U32(w))
			JB(LabelRef(done))
			JMP(LabelRef(labels[i]))
			break
		}
		CMPQ(n, U32(w))
		JAE(LabelRef(labels[i]))
	}
	if len(ws) == 0 {
		JMP(LabelRef(done))
	}
	for i, w := range ws {
		Label(labels[i])
		body(w)
		if i != len(ws)-1 {
			JMP(LabelRef(done))
		}
	}
	Label(done)
}

// maskTable holds, at index n (0..64), the uint64 with the low n bits set:
// the k-mask of the first n bytes of a ZMM vector. A table load avoids
// needing BMI2 (BZHI), which the AVX-512 contract does not promise.
var maskTable Mem

func genMaskTable() {
	maskTable = GLOBL("lowmask64", RODATA|NOPTR)
	for n := 0; n <= 64; n++ {
		var v uint64
		if n == 64 {
			v = ^uint64(0)
		} else {
			v = 1<<uint(n) - 1
		}
		DATA(8*n, U64(v))
	}
}

// iotaTable holds j%16 at byte j (0..79): loaded at offset r (0..15) it is
// the VPSHUFB index that rotates every 16-byte lane down by r bytes.
var iotaTable Mem

func genIotaTable() {
	iotaTable = GLOBL("iota16x5", RODATA|NOPTR)
	for j := 0; j < 80; j++ {
		DATA(j, U8(uint8(j%16)))
	}
}

// lowMask sets k to the mask of the first n bytes (0 <= n <= 64).
func lowMask(n reg.Register, k reg.Register) {
	t := gp()
	LEAQ(maskTable, t)
	KMOVQ(Mem{Base: t, Index: n, Scale: 8}, k)
}

// kreg allocates an opmask register (K is also the element-size name).
func kreg() reg.OpmaskVirtual { return K() }

// movePair copies n bytes, W <= n <= 2W, from s to d by two overlapping
// W-byte moves: through general registers up to 8 bytes, vectors above;
// for W == 1 (n == 1) one byte.
func movePair(W int, d, s, n reg.Register) {
	var r0, r1 reg.Register
	var mov func(a, b Op)
	switch W {
	case 1:
		g := GP8()
		MOVB(at(s, 0), g)
		MOVB(g, at(d, 0))
		return
	case 2:
		r0, r1, mov = GP16(), GP16(), gprMove(W)
	case 4:
		r0, r1, mov = GP32(), GP32(), gprMove(W)
	case 8:
		r0, r1, mov = gp(), gp(), gprMove(W)
	case 16:
		r0, r1, mov = XMM(), XMM(), VMOVDQU
	case 32:
		r0, r1, mov = YMM(), YMM(), VMOVDQU
	default:
		r0, r1, mov = ZMM(), ZMM(), func(a, b Op) { VMOVDQU64(a, b) }
	}
	mov(at(s, 0), r0)
	mov(ati(s, n, -W), r1)
	mov(r0, at(d, 0))
	mov(r1, ati(d, n, -W))
}

// gprMove is the general-register move of W = 1, 2, 4 or 8 bytes.
func gprMove(W int) func(a, b Op) {
	switch W {
	case 1:
		return MOVB
	case 2:
		return MOVW
	case 4:
		return MOVL
	}
	return MOVQ
}

// asWidth is the W-byte (1, 2, 4 or 8) view of a general register.
func asWidth(g reg.GPVirtual, W int) reg.Register {
	switch W {
	case 1:
		return g.As8()
	case 2:
		return g.As16()
	case 4:
		return g.As32()
	}
	return g
}

// byteRamp sets v to the bytes sh, sh+1, ..., sh+63 (iota holds 0..63):
// the indexes, for a byte permute, of the 64 bytes from sh on in a window.
func byteRamp(sh reg.GPVirtual, iota Op, v reg.VecVirtual) {
	VPBROADCASTB(sh.As32(), v)
	VPADDB(iota, v, v)
}

// repMovsb copies n bytes from s to d with REP MOVSB (fast strings: full
// lines are written without being read first). d, s and n are copied to
// DI, SI and CX, which it clobbers.
func repMovsb(d, s, n reg.Register) {
	MOVQ(d, reg.RDI)
	MOVQ(s, reg.RSI)
	MOVQ(n, reg.RCX)
	Instruction(&ir.Instruction{
		Opcode:  "REP; MOVSB",
		Inputs:  []Op{reg.RDI, reg.RSI, reg.RCX},
		Outputs: []Op{reg.RDI, reg.RSI, reg.RCX},
	})
}

// alignLoop starts the next instruction, a hot loop's first, on a 64-byte
// boundary (PCALIGN pads with NOPs, run once): Go's assembler places code
// unaligned, and a loop's placement alone has moved a kernel's time by 14%.
// The zero-width NOP before it keeps a label from landing on the PCALIGN:
// a jump to a PCALIGN makes Go's assembler (1.26) loop forever
// (golang/go#74648; checkOutput rejects it).
func alignLoop() {
	Instruction(&ir.Instruction{Opcode: "NOP"})
	Instruction(&ir.Instruction{Opcode: "PCALIGN", Operands: []Op{U8(64)}})
}

// byFull emits the two loops of a kernel whose table has a full flag (the
// int32 at tab+4, set when every byte of the rows takes one of src):
// loop(true) for full tables, which skip the blend with the value and the
// mask's registers, then loop(false) for the others. The loops return.
func byFull(tab reg.Register, prefix string, loop func(full bool)) {
	withValue := newLabel(prefix + "_value")
	CMPL(at(tab, 4), U8(0))
	JE(LabelRef(withValue))
	loop(true)
	Label(withValue)
	loop(false)
}
