package pad

import (
	"math/bits"
	"runtime"
	"strings"
	"unsafe"
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

// asmKernels is one level's set of assembly kernels (KERNELS.md): the
// architecture files list them in asmKernelSets, the dispatch wrappers
// (dispatch_asm.go) call the set of the level in use, the tests check
// every set the CPU supports against the Go versions.
type asmKernels struct {
	level     kernelLevel
	supported bool
	fill      func(dst *byte, n int, pat *[32]byte)
	copy      func(dst, src *byte, n int)
	reverse   [5]func(dst, src *byte, n int) // element sizes 1, 2, 4, 8, 16
	rowsConst func(dst, src *byte, rows, dstStride, srcStride, left, mid, right int, pat *[32]byte)
	rowsEdge  [5]func(dst, src *byte, rows, dstStride, srcStride, left, mid, right int)
	// rowsMirror: nil where the architecture has no assembly version yet.
	rowsMirror [5]func(dst, src *byte, rows, dstStride, srcStride, left, mid, right, leftFrom, rightFrom int)
	// rowsWrap: rows whose pads are forward runs of the row (wrap); nil
	// likewise.
	rowsWrap func(dst, src *byte, rows, dstStride, srcStride, left, mid, right, leftFrom, rightFrom int)
	// rowsPieces: rows as copies of pieces of their own input by a pieces
	// table (piecesOf); nil likewise.
	rowsPieces func(dst, src *byte, rows, dstStride, srcStride int, tab *int32, pieces int)
	// rowsShuffle: nil where the CPU or the architecture lacks it.
	rowsShuffle func(dst, src *byte, rows, dstStride, srcStride, width, mid int, tab *[144]byte, pat *[32]byte, planes, dstPlane, srcPlane int, rowIdx *int32, run0, run1 int, srcLimit uintptr)
	// rowsShuffle256: rows of 129 to 384 bytes from 64 to 256 by a
	// shuffle256 table (shuffle.go); nil likewise.
	rowsShuffle256 func(dst, src *byte, rows, dstStride, srcStride, width, mid int, tab *[384]byte, planes, dstPlane, srcPlane int, rowIdx *int32, run0, run1 int)
	// rowsShuffleDwords: the shuffle kernel for rows of 4-byte words
	// (shuffleTable.words), where the level has no rowsShuffle.
	rowsShuffleDwords func(dst, src *byte, rows, dstStride, srcStride int, tab *[200]byte, pat *[32]byte, planes, dstPlane, srcPlane int, rowIdx *int32, run0, run1 int)
	// rowsShuffleNarrow: the shuffle kernel for rows of 4 to 32 bytes in
	// and 8 to 64 out (shuffleTable.narrow), where the level has no
	// rowsShuffle.
	rowsShuffleNarrow func(dst, src *byte, rows, dstStride, srcStride int, tab *[224]byte, pat *[32]byte, planes, dstPlane, srcPlane int, rowIdx *int32, run0, run1 int)
	// planeChunks: small planes of narrow rows by 64-byte blocks
	// (chunks.go); nil where the CPU or the architecture lacks it.
	planeChunks func(dst, src *byte, planes, dstPlane, srcPlane int, tab *byte, chunks, last, inLen int)
	// planeBlocks: likewise by 32-byte blocks (chunks.go: blockTable),
	// where the level has no planeChunks.
	planeBlocks func(dst, src *byte, planes, dstPlane, srcPlane int, tab *byte, blocks, batch int, pat *[32]byte)
	// rowsEnds: rows with pads of at most 16 bytes (rowsends.go), where
	// the level has no rowsShuffle and rowsWide.
	rowsEnds func(dst, src *byte, rows, dstStride, srcStride, width, mid, left int, tab *[96]byte, pat *[32]byte, planes, dstPlane, srcPlane int)
	// rowsEndsWords: rows of elements of 4 bytes or more with pads of at
	// most 32 bytes (rowsends.go), where the level has no rowsWide.
	rowsEndsWords func(dst, src *byte, rows, dstStride, srcStride, width, mid, left, aAt, bBefore int, tab *[128]byte, pat *[32]byte, planes, dstPlane, srcPlane int)
	// rowsWide: likewise.
	rowsWide func(dst, src *byte, rows, dstStride, srcStride, width, mid, left int, tab *[144]byte, pat *[32]byte, planes, dstPlane, srcPlane int)
	// rowsAligned: the wide kernel's rows when they follow each other in
	// dst, by aligned stores; likewise.
	rowsAligned alignedKernel
	// rowsLines: the middle rows of planes of narrow rows as aligned
	// blocks (rowslines.go); likewise.
	rowsLines linesKernel
	// rowsExpand: constant padding of consecutive planes as aligned
	// blocks (rowsexpand.go); likewise. srcEnd is pageEnd of the call's
	// input: no block reads at or past it (its whole loads stay in the
	// page).
	rowsExpand func(dst, src *byte, n int, tab *uint64, entries int, pat *[32]byte, srcEnd uintptr)
	// rowsExpandDwords: the same for tables that take whole 4-byte words
	// (expandTable.dwords: entries 8-bit word masks, then 14 copies); it
	// goes first where the table has them.
	rowsExpandDwords func(dst, src *byte, n int, tab *byte, entries int, pat *[32]byte, srcEnd uintptr)
	// rowsExpandBytes: rowsExpand's contract without VBMI2, at some cost a
	// block (a shuffle a 16-byte lane): levels without rowsExpand take it
	// for the tables of interior padding only (width 0, denseExpandOf),
	// whose other path is Go.
	rowsExpandBytes func(dst, src *byte, n int, tab *uint64, entries int, pat *[32]byte, srcEnd uintptr)
	// rowsExpandHalves: rowsExpandBytes from a table of the codes of its
	// masks' halves (expandTable.halves), where the table has one.
	rowsExpandHalves func(dst, src *byte, n int, tab *[8]byte, entries int, dict *byte, pat *[32]byte, srcEnd uintptr)
	// expandDwordsMaxWidth: the widest row, in bytes, whose planes take
	// rowsExpandDwords (0: any); wider rows take the rows kernels.
	expandDwordsMaxWidth int
	// expandsRows: runs of constant rows that follow each other, tiny
	// planes and runs of cubes take the expand kernels where the plan has
	// their table (rowExpandOf, planeExpandMax, cubeExpandOf).
	expandsRows bool

	// copyRep: REP MOVSB (fast strings), where the CPU has ERMS; copyBytes
	// uses it from repMinBytes on.
	copyRep func(dst, src *byte, n int)

	// The streaming versions of copy and rowsAligned, for outputs larger
	// than the cache (see streamMinBytes); nil where the level has none.
	copyStream        func(dst, src *byte, n int)
	rowsAlignedStream alignedKernel
}

// alignedKernel is the signature of the aligned rows kernels (KERNELS.md
// item 9).
type alignedKernel = func(dst, src *byte, rows, srcStride, width, mid, left int, tab *[144]byte, pat *[32]byte, planes, dstPlane, srcPlane, top, bottom int)

// linesKernel is the signature of the lines kernel (KERNELS.md item 10).
type linesKernel = func(dst, src *byte, cur, first, n int, tab *byte, entries int, head, tail uint64)

// shuffleLoadLimit returns rowsShuffleAVX512's srcLimit for rows in src
// of which it takes mid bytes: the highest address from which its window
// (64 bytes, 128 when mid > 64) ends in the 4 KiB page of src's last
// byte, and so reads only mapped memory. The bytes it reads past a row
// are not used. The runtime's internal/bytealg reads past short slices
// within their page in the same way.
func shuffleLoadLimit(src []byte, mid int) uintptr {
	if len(src) == 0 {
		return 0
	}
	window := uintptr(64)
	if mid > 64 {
		window = 128
	}
	return pageEnd(src) - window
}

// addrPhase is the offset of b's first byte in its 64-byte line.
func addrPhase(b []byte) int { return int(uintptr(unsafe.Pointer(unsafe.SliceData(b))) & 63) }

// pageEnd returns the end of the 4 KiB page that holds src's last byte
// (len(src) > 0): the expand kernels' srcEnd. Nothing before it faults.
func pageEnd(src []byte) uintptr {
	return uintptr(unsafe.Pointer(&src[len(src)-1])) | (4096 - 1) + 1
}

// streamMinBytes is the output, per worker, from which a run writes with
// streaming stores where the kernels have them (the copy and aligned rows
// kernels of AVX-512): those write whole cache lines to memory without
// first reading them and without keeping them in cache. Below it the
// output stays in the core's cache between runs and ordinary stores are
// faster; above it the output goes to memory either way. Measured on a
// Xeon with 2 MiB of L2 per core (cmd/padbench, BenchmarkSuite's cases
// scaled). Test hooks set it and streamMinTraffic to 0 to send every run
// through them (withStreaming).
var streamMinBytes = 3 << 19

// streamMinTraffic is the input plus output bytes from which a run may
// stream, when the CPU's last-level cache keeps what is smaller than that
// between runs (AMD, pad_amd64.go); 0 elsewhere. The cache is shared by
// the workers, so it counts the whole run.
var streamMinTraffic = 0

// repMinBytes is the length from which copyBytes copies with REP MOVSB
// (the level's copyRep) in outputs that do not stream, unless dst lies 1
// to 63 bytes after src modulo 4 KiB (repCopies); 0: never. Fast-string
// microcode writes whole lines without reading them first, which ordinary
// vector stores do. Set on AMD by CPU family (pad_amd64.go); Intel keeps
// the vector copies, unmeasured.
var repMinBytes = 0

// linesNarrowRows reports whether planes of narrow rows (the shuffle
// kernel's, at most 128 bytes) get lines tables, so that their middle rows
// take the lines kernel (rowListLinesBytes) rather than the shuffle
// kernel's pass over whole planes. Wide rows take it either way. Off on
// AMD from Zen 5 on (pad_amd64.go), where the shuffle kernel measured
// faster; on an Intel Xeon the lines kernel did.
var linesNarrowRows = true

// wideInCache reports whether rows of up to wideSkipMaxWidth bytes take
// the wide kernels (rowsWide, rowsAligned: KERNELS.md items 8 and 9) in
// outputs the core's cache keeps; when it is off, such rows take the rows
// kernels (the ends kernel where endsPays says so) and, for their planes'
// middles, the lines kernel (sizeTables.skipWide), if the rows kernels
// take their blocks (element groups of 1 to 16 bytes: NHWC's 12-byte RGB
// pixels keep the wide kernels) and, for wrapped rows and mirrored rows of
// elements wider than a byte, the ends kernel makes them (rowsBeatWide). Off on AMD from
// Zen 5 on (pad_amd64.go), where those measured faster; the wide kernels
// were measured against the rows kernels on an Intel Xeon, and outputs
// past the cache keep them (streaming stores are theirs).
var wideInCache = true

// alignedInCache reports whether wide rows that follow each other in an
// output that does not stream take the aligned kernel (rowsAligned,
// KERNELS.md item 9), every store a whole line, rather than the wide
// kernel (item 8), whose stores straddle two lines where the width is not
// a multiple of 64: measured so on an Intel Xeon (suite cases a and b).
// Off on AMD from Zen 5 on (pad_amd64.go), where the wide kernel measured
// faster. Streamed outputs and planes of constant padding made in one
// pass (rowsAlignedPads) keep the aligned kernels.
var alignedInCache = true

// byteExpandMaxWidth is the widest row, in bytes, whose planes take the
// byte expand kernel (rowsExpand, KERNELS.md item 11; the word kernels of
// item 12 are not bounded); 0: any. Set on AMD from Zen 5 on
// (pad_amd64.go), where planes of wider rows took less time by the
// shuffle, rows and wide kernels.
var byteExpandMaxWidth = 0

// planeChunksOn reports whether small planes of narrow rows get block
// tables (chunkTableOf), so that the chunks kernel makes them.
var planeChunksOn = true

// planeBlocksOn likewise for the blocks tables (blockTableOf) of the
// levels without VBMI.
var planeBlocksOn = true

// wideSkipMaxWidth is the widest row, in bytes, that wideInCache sends to
// the rows kernels: on a Zen 5, rows of 1 KiB took 0.94-1.02x the wide
// kernels' time, rows of 2 KiB and more up to 1.16x (reflect and wrap).
const wideSkipMaxWidth = 1 << 10

// pastCache reports whether a run that writes out bytes on the given
// number of workers writes more than the core's cache keeps (streamMinBytes
// a worker). Unless its copies take REP MOVSB (programFor), such a run
// makes the blocks that repeat finished output from the input instead
// (the plan's input program): by the time they are made, the blocks they
// repeat have left the core's cache, while the input is read in chunks
// that serve every block made from it. On a Zen 5, with vector copies and
// the output out of cache before each run (as a fresh output is), suite
// case h (float64, edge padding of every axis, 12 MiB of output) took
// 0.95x the time and a 3 MiB version of it 0.90x; in the peer harness,
// whose output stays in L3 between runs, h took the same time. Smaller
// outputs, whose finished blocks are still in the core's cache, took up to
// 1.8x.
func pastCache(out, workers int) bool {
	return out/max(workers, 1) >= streamMinBytes
}

// streams reports whether a run that reads in bytes and writes out bytes
// on the given number of workers writes with streaming stores.
func streams(in, out, workers int) bool {
	return pastCache(out, workers) && in+out >= streamMinTraffic
}

// chunkBytes bounds the bytes one assembly call writes: an assembly call
// cannot be preempted, so long runs are split (the runtime clears memory
// in chunks of this size for the same reason).
const chunkBytes = 256 << 10

// kernelSizes are the element sizes of the byte kernels, in the order of
// their tables.
var kernelSizes = [5]int{1, 2, 4, 8, 16}

// sizeIndex is the index of a kernel size (1, 2, 4, 8, 16) in the tables.
func sizeIndex(size int) int { return bits.TrailingZeros(uint(size)) }

// planes is the outer loop of the rows wrappers (rowsConstBytes,
// rowsEdgeBytes, rowsMirrorBytes): n blocks of rows, block p at byte p*dst
// of dst and p*src of src (dst, src >= 0). One call pads every plane of an
// image batch, so the executor's cost is per run of rows, not per plane.
type planes struct{ n, dst, src int }

var onePlane = planes{n: 1}
