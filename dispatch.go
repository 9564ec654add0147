package pad

import (
	"runtime"
	"strings"
)

// The byte kernels (fill, copy, reversed copy, constant and edge rows) run
// at one of these levels: Go everywhere, SIMD assembly where the
// architecture file (pad_amd64.go, pad_arm64.go) and the CPU offer it.
// golang.org/x/sys/cpu honours GODEBUG, so cpu.avx512f=off, cpu.avx2=off
// (amd64) and cpu.asimd=off (arm64) lower the level at run time; the purego
// and noasm build tags leave out the assembly altogether (pad_noasm.go).
type kernelLevel uint8

const (
	levelGo kernelLevel = iota
	levelAVX2
	levelAVX512
	levelNEON
)

var levelNames = [...]string{"go", "avx2", "avx512", "neon"}

func (l kernelLevel) String() string { return levelNames[l] }

// active is the kernel level in use, chosen once at start-up (tests lower it
// to check every level).
var active = bestLevel()

// Kernels reports the kernels padding runs with in this process and what
// the CPU offers, for benchmarks and bug reports: for example
// "avx512 (amd64: avx2 avx512)", or "go (amd64: avx2; purego build)".
func Kernels() string {
	return active.String() + " (" + runtime.GOARCH + ": " + strings.Join(cpuFeatures(), " ") + ")"
}

// chunkBytes bounds the bytes one assembly call writes: an assembly call
// cannot be preempted, so long runs are split (the runtime clears memory
// in chunks of this size for the same reason).
const chunkBytes = 256 << 10

// rowChunk returns how many of rows rows one assembly call may make (at
// least one, at most about chunkBytes of output), after checking that dst
// and src hold them: the assembly trusts its arguments.
func rowChunk(dst, src []byte, rows, dstStride, srcStride, width, mid int) int {
	n := min(rows, max(1, chunkBytes/max(dstStride, 1)))
	_ = dst[(n-1)*dstStride+width-1]
	_ = src[(n-1)*srcStride+mid-1]
	return n
}
