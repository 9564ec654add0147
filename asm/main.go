// Command asm generates the amd64 SIMD kernels of package pad
// (../pad_amd64.s and ../pad_amd64_stubs.go) with avo:
//
//	go run . -out ../pad_amd64.s -stubs ../pad_amd64_stubs.go -pkg pad
//
// The kernels and their exact semantics are specified in the contract of
// issue 3 (notes/kernels.md). Every kernel is ABI0, NOSPLIT and frameless,
// and has a //go:noescape declaration whose doc comment shows the equivalent
// Go loop and the CPU features it needs.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"

	. "github.com/mmcloughlin/avo/build"
)

// elemSizes are the element sizes K of reverseK and rowsEdgeK.
var elemSizes = []int{1, 2, 4, 8, 16}

// labelN numbers labels. Labels are function-scoped in Go assembly; a
// counter that never resets keeps the names unique and deterministic.
var labelN int

func newLabel(prefix string) string {
	labelN++
	return fmt.Sprintf("%s_%d", prefix, labelN)
}

// kernel starts a function: TEXT, //go:noescape and its doc comment.
func kernel(name, sig string, doc ...string) {
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	var lines []string
	for _, d := range doc {
		lines = append(lines, strings.Split(d, "\n")...)
	}
	Doc(lines...)
}

func main() {
	// avo v0.6.0 parses the +build form; it prints //go:build amd64 && gc && !purego && !noasm.
	// amd64 is needed: the _amd64 in pad_amd64_stubs.go does not constrain that file.
	ConstraintExpr("amd64,gc,!purego,!noasm")

	genMaskTable()
	genIotaTable()
	genIota64()
	genClampMasks()
	genConsts()
	for _, a := range []isa{avx2, avx512} {
		genFill(a)
		genCopy(a)
	}
	// No streaming fill: full-line stores of a fill skip the read of the
	// line anyway, and the streaming version measured 13% slower
	// (BenchmarkStream's first version, 16 MiB).
	genCopy(avx512Stream)
	genCopyRep()
	for _, a := range []isa{avx2, avx512} {
		for _, k := range elemSizes {
			genReverse(a, k)
		}
	}
	for _, a := range []isa{avx2, avx512} {
		genRowsConst(a)
		for _, k := range elemSizes {
			genRowsEdge(a, k)
		}
	}
	for _, a := range []isa{avx2, avx512} {
		for _, k := range elemSizes {
			genRowsMirror(a, k)
		}
	}

	genRowsShuffle()
	genRowsShuffle256()
	genPlaneChunks()
	genPlaneBlocks()
	genRowsWide()
	genRowsAligned(avx512)
	genRowsAligned(avx512Stream)
	genRowsLines()
	genRowsExpand(false)
	genRowsExpand(true)
	genRowsExpandDwords()
	genRowsExpandBytes()
	genRowsExpandHalves()
	genRowsShuffleDwords()
	genRowsShuffleNarrow()
	genRowsEnds()
	genRowsEndsWords()
	for _, a := range []isa{avx2, avx512} {
		genRowsWrap(a)
	}
	genRowsPieces()
	genStoreFence()
	genCPUID()

	Generate()
	checkOutput()
}

// checkOutput fails the generation on code that Go's assembler mishandles:
//   - R15: when dynamically linking (-dynlink: plugins, shared libraries),
//     the assembler uses R15 for accesses to global data such as the mask
//     tables and rejects code that uses R15 after them. avo v0.6.0 cannot
//     reserve a register, so the kernels are written to need few enough
//     registers and this keeps it so.
//   - A label just before a PCALIGN: a jump to it makes the assembler (Go
//     1.26) loop forever (golang/go#74648). alignLoop puts a NOP between.
func checkOutput() {
	f := flag.Lookup("out")
	if f == nil || f.Value.String() == "" || f.Value.String() == "-" {
		return
	}
	b, err := os.ReadFile(f.Value.String())
	if err != nil {
		log.Fatal(err)
	}
	if bytes.Contains(b, []byte("R15")) {
		log.Fatalf("%s uses R15, which breaks -dynlink builds: reduce register pressure", f.Value.String())
	}
	lines := strings.Split(string(b), "\n")
	for i := 1; i < len(lines); i++ {
		if strings.HasPrefix(strings.TrimSpace(lines[i]), "PCALIGN") && strings.HasSuffix(lines[i-1], ":") {
			log.Fatalf("%s:%d: label %s is just before a PCALIGN, which hangs Go's assembler: use alignLoop", f.Value.String(), i+1, lines[i-1])
		}
	}
}
