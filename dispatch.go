package pad

import (
	"runtime"
	"strings"

	"golang.org/x/sys/cpu"
)

// The CPU features kernel selection looks at, read once at start-up.
// golang.org/x/sys/cpu honours GODEBUG (cpu.avx2=off, cpu.avx512f=off,
// cpu.asimd=off), so dispatch can be steered without rebuilding.
var (
	hasAVX2   = cpu.X86.HasAVX2
	hasAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW
	hasASIMD  = cpu.ARM64.HasASIMD
)

// Kernels describes the kernels padding runs with in this process and the
// CPU features that were detected, for benchmarks and bug reports, e.g.
// "generic (amd64: avx2 avx512)".
func Kernels() string {
	var feats []string
	if hasAVX2 {
		feats = append(feats, "avx2")
	}
	if hasAVX512 {
		feats = append(feats, "avx512")
	}
	if hasASIMD {
		feats = append(feats, "asimd")
	}
	if len(feats) == 0 {
		feats = append(feats, "no SIMD")
	}
	return "generic (" + runtime.GOARCH + ": " + strings.Join(feats, " ") + ")"
}
