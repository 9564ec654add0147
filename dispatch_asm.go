//go:build (amd64 || arm64) && gc && !purego && !noasm

package pad

import (
	"math/bits"
	"unsafe"
)

// The dispatch wrappers of the architectures with assembly: they check
// bounds, report memory to the race detector, split long runs into calls
// of at most chunkBytes, and call the kernels of the level in use where
// those beat the Go version.

// Where the assembly beats the Go version, in bytes of the run, measured
// on amd64 with BenchmarkKernels (benchstat over -count 10, AVX2 and AVX-512
// on an Emerald Rapids Xeon, family 6 model 207); arm64 uses the same ranges (timings under
// qemu mean nothing). Below the minimums a call into assembly costs more
// than it saves; long rows are bound by memory, where the runtime's memmove
// is as fast.
const (
	fillMinAsm    = 64
	reverseMinAsm = 16
	rowsMaxMidAsm = 16 << 10
	// streamMinRun: shorter copies keep ordinary stores even in a streamed
	// output, whose lines they share with other runs.
	streamMinRun = 1 << 10
)

// kernelsInUse returns the assembly kernels of the level in use, or nil.
func kernelsInUse() *asmKernels { return kernelsAt(active) }

// kernelsAt returns the assembly kernels of level l, or nil.
func kernelsAt(l kernelLevel) *asmKernels {
	for i := range asmKernelSets {
		if asmKernelSets[i].level == l {
			return &asmKernelSets[i]
		}
	}
	return nil
}

func fillBytes(b []byte, pat *[32]byte) {
	ks := kernelsInUse()
	if ks == nil || len(b) < fillMinAsm {
		fillGo(b, pat)
		return
	}
	raceWrite(b)
	inChunks(len(b), func(off, n int) { ks.fill(&b[off], n, pat) })
}

// inChunks calls call for [0, n) in pieces of at most chunkBytes (kept a
// multiple of every element size), in order: an assembly call cannot be
// preempted.
func inChunks(n int, call func(off, n int)) {
	for off := 0; off < n; off += chunkBytes {
		call(off, min(n-off, chunkBytes))
	}
}

// copyBytes is the runtime's memmove, or with stream the streaming copy
// kernel where the level has one, for copies of at least streamMinRun. The
// AVX-512 copy kernel wins in BenchmarkKernels from 256 bytes to 8 KiB, but
// not inside the executor, where destinations are unaligned and copies
// interleave with fills (BenchmarkExtra rows_wrap: 22% slower). The copy
// kernels serve inside the fused rows kernels, and for copies of
// memmoveStreams bytes and more in an output that does not stream: the
// runtime's memmove writes those with streaming stores, which send an
// output that fits in the cache to memory (suite case f's 1 MiB block on a
// Zen 5: 0.81x the time with the AVX-512 kernel). Where repCopies says so,
// an output that does not stream takes REP MOVSB instead.
func copyBytes(dst, src []byte, stream bool) {
	ks := kernelsInUse()
	var kernel func(dst, src *byte, n int)
	switch {
	case ks == nil:
	case stream:
		if len(src) >= streamMinRun {
			kernel = ks.copyStream // nil where the level has none
		}
	case repCopies(ks, dst, src):
		kernel = ks.copyRep
	case len(src) >= memmoveStreams:
		kernel = ks.copy
	}
	if kernel == nil {
		copy(dst, src)
		return
	}
	dst = dst[:len(src)]
	raceRead(src)
	raceWrite(dst)
	inChunks(len(src), func(off, n int) { kernel(&dst[off], &src[off], n) })
}

// repCopies reports whether copyBytes copies src to dst with REP MOVSB:
// from repMinBytes on, where the CPU has it, unless dst lies 1 to 63 bytes
// after src modulo 4 KiB (repSlowDistance). On a Zen 5, in L2 (800 KiB of
// blocks), REP MOVSB took 0.83-0.89x the time of the runtime's memmove at
// 4 KiB and 0.75-0.78x from 16 KiB with dst and src in phase (0.94-1.0x
// at 2 KiB); suite case f (two 1 MiB blocks in phase) went from
// 0.69-0.71x to 0.62-0.64x memmove. Overlapping ranges keep the runtime's
// memmove, whose result REP MOVSB's byte-by-byte forward order would not
// give.
func repCopies(ks *asmKernels, dst, src []byte) bool {
	if ks.copyRep == nil || repMinBytes <= 0 || len(src) < repMinBytes {
		return false
	}
	d, s := uintptr(unsafe.Pointer(unsafe.SliceData(dst))), uintptr(unsafe.Pointer(unsafe.SliceData(src)))
	n := uintptr(len(src))
	return (d+n <= s || s+n <= d) && !repSlowDistance(d, s)
}

// repCopiesOn reports whether copyBytes takes REP MOVSB for long copies
// (repCopies) at the level in use.
func repCopiesOn() bool {
	ks := kernelsInUse()
	return ks != nil && ks.copyRep != nil && repMinBytes > 0
}

// repDirection reports which copies of a finished block of n bytes to a
// block next to it take REP MOVSB at a fast distance (repSlowDistance)
// when the other way does not: 1 (dst after src), -1 (dst before src),
// or 0 (both or neither, or no REP copies). Suite case h's planes
// (2113568 bytes, 32 modulo 4 KiB) copy fast only from the plane after.
func repDirection(n int) int {
	if !repCopiesOn() || n < repMinBytes {
		return 0
	}
	switch {
	case repSlowDistance(uintptr(n), 0):
		return -1
	case repSlowDistance(0, uintptr(n)):
		return 1
	}
	return 0
}

// repSlowDistance reports whether REP MOVSB from s to d is slow: when d
// lies 1 to 63 bytes after s modulo 4 KiB, as if the copy overlapped
// (the microcode compares the low address bits). On a Zen 5, 600 KiB in
// L2 and L3 (suite case j's size): 0.74-0.75x memmove's time at every
// other distance tried, dst aligned or not (0 to 4088 bytes, src at every
// phase); 0.90-0.97x at 8, 32 and 56 bytes.
func repSlowDistance(d, s uintptr) bool {
	dist := (d - s) & 4095
	return dist > 0 && dist < 64
}

// reverseBytes copies the size-byte elements of src to dst in reverse
// order; size is a kernel size.
func reverseBytes(dst, src []byte, size int) {
	ks := kernelsInUse()
	if ks == nil || len(src) < reverseMinAsm {
		reverseGo(dst, src, size)
		return
	}
	dst = dst[:len(src)]
	raceRead(src)
	raceWrite(dst)
	reverse := ks.reverse[sizeIndex(size)]
	inChunks(len(src), func(off, n int) { reverse(&dst[off], &src[len(src)-off-n], n) })
}

// rowsConstBytes: with stream, rows that follow each other in dst take the
// streaming aligned kernel where the level has it (constant pads of up to
// 128 bytes in all: alignedConstFits). That kernel takes the pattern in the
// phase of the row, rowsConst in the phase of each pad: they agree when
// the pattern repeats after left+mid bytes, as it does for elements.
func rowsConstBytes(dst, src []byte, pl planes, rows, dstStride, srcStride, left, mid, right int, pat *[32]byte, stream bool) {
	ks := kernelsInUse()
	width := left + mid + right
	if stream && ks != nil && ks.rowsAlignedStream != nil && dstStride == width && alignedConstFits(left, mid, right) &&
		repeatsAfter(pat, left+mid) {
		alignedRows(ks.rowsAlignedStream, dst, src, pl, rows, srcStride, width, mid, left, 0, 0, constTable, pat)
		return
	}
	if !stream {
		ks = rowsKernelsFor(dst, src, pl, dstStride, srcStride, left, mid)
	}
	if ks == nil || mid >= rowsMaxMidAsm {
		for p := range pl.n {
			rowsConstGo(dst[p*pl.dst:], src[p*pl.src:], rows, dstStride, srcStride, left, mid, right, pat)
		}
		return
	}
	rowChunks(dst, src, pl, rows, dstStride, srcStride, width, mid, func(d, s *byte, n int) {
		ks.rowsConst(d, s, n, dstStride, srcStride, left, mid, right, pat)
	})
}

// rowsShiftedBytes makes planes of constant-padded rows whose width in dst
// is the stride of their input rows, as a crop on one side of an axis and
// a pad on the other make them: every row's mid then lies at one distance
// from its input, so one copy of the input from the first row's mid to
// the last one's end makes every mid, and the pads, filled after it,
// overwrite what the copy put between them. It reports whether it did: it
// does when that copy takes REP MOVSB (repCopies), which writes whole
// lines without reading them first, as the rows kernels cannot. Plane p
// of dst (at p*pl.dst) is top bytes of the value, the rows, and bottom
// bytes of the value; its rows are read from p*pl.src of src. src must
// hold input between the rows: the copy reads it. top, width, left and
// mid are whole elements (multiples of pat's period): the fills join the
// top pad rows with the first left pad, and each right pad with the next
// left pad.
func rowsShiftedBytes(dst, src []byte, pl planes, rows, width, left, mid, top, bottom int, pat *[32]byte) bool {
	ks := kernelsInUse()
	right := width - left - mid
	if ks == nil || rows < 2 || left+right == 0 || pl.n == 0 {
		return false
	}
	span := (rows-1)*width + mid // from the first mid to the last one's end
	if !repCopies(ks, dst[top+left:top+left+span], src[:span]) {
		return false
	}
	for p := range pl.n {
		d, s := dst[p*pl.dst:p*pl.dst+top+rows*width+bottom], src[p*pl.src:]
		copyBytes(d[top+left:top+left+span], s[:span], false)
		fillBytes(d[:top+left], pat)
		fillBytes(d[top+(rows-1)*width+left+mid:], pat)
		// The gaps between mids, each a row's right pad and the next
		// one's left: rows of a left pad only. (Filling each 32 KiB of
		// rows' gaps right after copying them was slower: REP MOVSB wants
		// long copies.)
		rowsConstBytes(d[top+left+mid:], s, onePlane, rows-1, width, 0, left+right, 0, 0, pat, false)
	}
	return true
}

// rowsEdgeBytes: size is the element the edge padding repeats.
func rowsEdgeBytes(dst, src []byte, size int, pl planes, rows, dstStride, srcStride, left, mid, right int) {
	ks := rowsKernelsFor(dst, src, pl, dstStride, srcStride, left, mid)
	if ks == nil || !kernelSize(size) || mid >= rowsMaxMidAsm {
		for p := range pl.n {
			rowsEdgeGo(dst[p*pl.dst:], src[p*pl.src:], size, rows, dstStride, srcStride, left, mid, right)
		}
		return
	}
	edge := ks.rowsEdge[sizeIndex(size)]
	rowChunks(dst, src, pl, rows, dstStride, srcStride, left+mid+right, mid, func(d, s *byte, n int) {
		edge(d, s, n, dstStride, srcStride, left, mid, right)
	})
}

// rowsMirrorBytes: mirrored rows (reflect and symmetric of short rows);
// size is the unit the pieces mirror.
func rowsMirrorBytes(dst, src []byte, size int, pl planes, rows, dstStride, srcStride, left, mid, right, leftFrom, rightFrom int) {
	ks := rowsKernelsFor(dst, src, pl, dstStride, srcStride, left, mid)
	if ks == nil || ks.rowsMirror[sizeIndex(size)] == nil || mid >= rowsMaxMidAsm {
		for p := range pl.n {
			rowsMirrorGo(dst[p*pl.dst:], src[p*pl.src:], size, rows, dstStride, srcStride, left, mid, right, leftFrom, rightFrom)
		}
		return
	}
	mirror := ks.rowsMirror[sizeIndex(size)]
	rowChunks(dst, src, pl, rows, dstStride, srcStride, left+mid+right, mid, func(d, s *byte, n int) {
		mirror(d, s, n, dstStride, srcStride, left, mid, right, leftFrom, rightFrom)
	})
}

// rowsWrapBytes: rows whose pads are forward runs of the row (wrap
// padding), the left pad from byte leftFrom of the src row, the right one
// from rightFrom.
func rowsWrapBytes(dst, src []byte, pl planes, rows, dstStride, srcStride, left, mid, right, leftFrom, rightFrom int) {
	ks := rowsKernelsFor(dst, src, pl, dstStride, srcStride, left, mid)
	if ks == nil || ks.rowsWrap == nil || mid >= rowsMaxMidAsm {
		for p := range pl.n {
			rowsWrapGo(dst[p*pl.dst:], src[p*pl.src:], rows, dstStride, srcStride, left, mid, right, leftFrom, rightFrom)
		}
		return
	}
	rowChunks(dst, src, pl, rows, dstStride, srcStride, left+mid+right, mid, func(d, s *byte, n int) {
		ks.rowsWrap(d, s, n, dstStride, srcStride, left, mid, right, leftFrom, rightFrom)
	})
}

// rowsPiecesBytes makes rows of width bytes as copies of pieces of their
// input rows of mid bytes by a pieces table (piecesOf) if the level in use
// has the kernel, and reports whether it did.
func rowsPiecesBytes(dst, src []byte, pl planes, rows, dstStride, srcStride, width, mid int, tab []int32) bool {
	ks := kernelsInUse()
	if ks == nil || ks.rowsPieces == nil || len(tab) == 0 || mid >= rowsMaxMidAsm {
		return false
	}
	rowChunks(dst, src, pl, rows, dstStride, srcStride, width, mid, func(d, s *byte, n int) {
		ks.rowsPieces(d, s, n, dstStride, srcStride, &tab[0], len(tab)/3)
	})
	return true
}

// halfLineMinMid is the shortest middle that halfLineRows counts: from it
// the wide kernel copies middles by shifted blocks (asm/wide.go).
const halfLineMinMid = 256

// halfLineRows reports whether the AVX-512 kernels are in use and every
// row's middle, at least halfLineMinMid bytes, lies half a cache line off
// its input's phase: dst and src rows on 32-byte boundaries, dst 32 bytes
// past src modulo 64, in every row of every plane (suite case e: 4096-byte
// rows stored 32 bytes into rows of 4160). There each 64-byte load or
// store of the AVX-512 rows kernels straddles two lines, and the wide
// kernel makes each 64-byte block from two aligned loads and a VPERMT2B,
// while 32-byte vectors straddle none: rowsKernelsFor then gives the AVX2
// kernels, and rowsWideBytes leaves the rows to them.
func halfLineRows(dst, src []byte, pl planes, dstStride, srcStride, left, mid int) bool {
	if ks := kernelsInUse(); ks == nil || ks.level != levelAVX512 || mid < halfLineMinMid || len(dst) <= left || len(src) == 0 {
		return false
	}
	d := uintptr(unsafe.Pointer(&dst[left]))
	s := uintptr(unsafe.Pointer(&src[0]))
	onGrid := func(n int) bool { return n%32 == 0 }
	return d%32 == 0 && s%32 == 0 && (d-s)%64 == 32 &&
		onGrid(dstStride) && onGrid(srcStride) && (dstStride-srcStride)%64 == 0 &&
		(pl.n <= 1 || onGrid(pl.dst) && onGrid(pl.src) && (pl.dst-pl.src)%64 == 0)
}

// rowsKernelsFor returns the kernels that make rows of a middle of mid
// bytes at left: the AVX2 ones for rows half a line off their input's
// phase (halfLineRows), else the kernels in use. At suite case e's shape
// (float32 [64, 1024] padded by 8 on axis 1; five alternated processes,
// time over memmove's) wrap took 1.00-1.11x against 1.04-1.15x with the
// wide kernel, reflect 1.04-1.42x against 1.10-1.47x, edge about the same
// (4 of 5 lower). Such rows take the AVX2 level's word ends kernel too
// (rowsEndsWordsBytes), which the AVX-512 set has only without VBMI: in
// process, against rowsMirror and rowsWrap, float64 [1, 22, 40, 40]
// reflected by 4 took 0.71x the time (1.71 -> 1.20x memmove), wrapped
// 0.82x, [1, 9, 64, 64] reflected 0.91x, ten other half-line geometries
// (float32 by 8, float64 by 4, rows of 320 to 1.6 KB) 0.97-1.01x.
func rowsKernelsFor(dst, src []byte, pl planes, dstStride, srcStride, left, mid int) *asmKernels {
	if halfLineRows(dst, src, pl, dstStride, srcStride, left, mid) {
		return kernelsAt(levelAVX2)
	}
	return kernelsInUse()
}

// shuffleTakes reports whether the level in use has a shuffle kernel for
// the rows of tab (canShuffle).
func shuffleTakes(tab *shuffleTable) bool {
	ks := kernelsInUse()
	return ks != nil && ks.canShuffle(tab)
}

// shuffleInUse reports whether narrow rows use the shuffle kernel.
func shuffleInUse() bool {
	ks := kernelsInUse()
	return ks != nil && ks.rowsShuffle != nil
}

// rowsShuffleBytes makes narrow rows by a shuffle table (shuffle.go) if
// the level in use has the kernel, and reports whether it did.
func rowsShuffleBytes(dst, src []byte, pl planes, rows, dstStride, srcStride, width, mid int, tab *shuffleTable, pat *[32]byte) bool {
	ks := kernelsInUse()
	if ks == nil || !ks.canShuffle(tab) || !shuffleFits(width, mid) {
		return false
	}
	planeCalls(dst, src, pl, rows, dstStride, srcStride, width, mid, func(d, s *byte, rows int, pl planes) {
		ks.shuffle(d, s, src, rows, dstStride, srcStride, width, mid, tab, pat, pl, nil, 0, 0)
	})
	return true
}

// rowGroupsBytes makes n groups of rows of t in each of the planes pl
// (byte strides), each group one row of the shuffle kernel of the VBMI
// level (rowGroupOf), if the level in use has it, and reports whether it
// did.
func rowGroupsBytes(dst, src []byte, pl planes, n int, t *rowGroupTable, pat *[32]byte) bool {
	if ks := kernelsInUse(); ks == nil || ks.rowsShuffle == nil {
		return false
	}
	return rowsShuffleBytes(dst, src, pl, n, t.width, t.rows*t.srcStride, t.width, t.mid, &t.tab, pat)
}

// planeChunksBytes makes the planes pl by a block table (chunks.go) if
// the level in use has the kernel, and reports whether it did.
func planeChunksBytes(dst, src []byte, pl planes, t *chunkTable) bool {
	ks := kernelsInUse()
	if ks == nil || ks.planeChunks == nil || pl.n == 0 {
		return false
	}
	planeTableCalls(dst, src, pl, t.width, t.inLen, func(d, s *byte, pl planes) {
		ks.planeChunks(d, s, pl.n, pl.dst, pl.src, &t.idx[0][0], len(t.idx), t.width-64, t.inLen)
	})
	return true
}

// planeBlocksBytes makes the planes pl by a blocks table (chunks.go) if
// the level in use has the kernel, or the table is one the AVX-512 level
// with VBMI takes by the AVX2 level's (byAVX2), and reports whether it
// did. Where the table's planes take the value and it is not zero bytes
// (zeroValue), the kernel ORs in its pattern pat.
func planeBlocksBytes(dst, src []byte, pl planes, t *blockTable, zeroValue bool, pat *[32]byte) bool {
	return planeBlocksBy(t.byAVX2, dst, src, pl, t, zeroValue, pat)
}

// planeBlocksAVX2Bytes is planeBlocksBytes by the AVX2 level's kernel
// where the level in use has none, whatever the table's byAVX2.
func planeBlocksAVX2Bytes(dst, src []byte, pl planes, t *blockTable, zeroValue bool, pat *[32]byte) bool {
	return planeBlocksBy(true, dst, src, pl, t, zeroValue, pat)
}

// planeBlocksBy is planeBlocksBytes, by the AVX2 level's kernel where the
// level in use has none if byAVX2.
func planeBlocksBy(byAVX2 bool, dst, src []byte, pl planes, t *blockTable, zeroValue bool, pat *[32]byte) bool {
	ks := kernelsInUse()
	if ks != nil && ks.planeBlocks == nil && byAVX2 {
		ks = kernelsAt(levelAVX2)
	}
	if ks == nil || ks.planeBlocks == nil || pl.n == 0 {
		return false
	}
	if !t.takesValue || zeroValue {
		pat = nil
	}
	batch := max(1, blocksBatchBytes/max(t.width, 1)) // the planes' bytes, whatever their stride
	planeTableCalls(dst, src, pl, t.width, t.inLen, func(d, s *byte, pl planes) {
		ks.planeBlocks(d, s, pl.n, pl.dst, pl.src, &t.ent[0].a[0], len(t.ent), batch, pat)
	})
	return true
}

// planeTableCalls calls kernel, a kernel of whole planes of width bytes
// out from inLen in, on the batches of the planes pl (planeBatches).
func planeTableCalls(dst, src []byte, pl planes, width, inLen int, kernel func(d, s *byte, pl planes)) {
	planeBatches(dst, src, pl, width, inLen, func(d, s []byte) {
		raceWrite(d[:width])
		raceRead(s[:inLen])
	}, func(d, s []byte, pl planes) {
		kernel(&d[0], &s[0], pl)
	})
}

// canShuffle reports whether the level has a shuffle kernel for the rows
// of tab: rowsShuffle, or rowsShuffleDwords for rows of words, or
// rowsShuffleNarrow for narrower rows.
func (ks *asmKernels) canShuffle(tab *shuffleTable) bool {
	return ks.rowsShuffle != nil || ks.rowsShuffleDwords != nil && tab.words != nil ||
		ks.rowsShuffleNarrow != nil && tab.narrow != nil
}

// shuffle calls the shuffle kernel canShuffle found, for rows in src.
func (ks *asmKernels) shuffle(d, s *byte, src []byte, rows, dstStride, srcStride, width, mid int, tab *shuffleTable, pat *[32]byte, pl planes, rowIdx *int32, run0, run1 int) {
	if ks.rowsShuffle != nil {
		ks.rowsShuffle(d, s, rows, dstStride, srcStride, width, mid, tab.bytes(), pat, pl.n, pl.dst, pl.src, rowIdx, run0, run1, shuffleLoadLimit(src, mid))
		return
	}
	if ks.rowsShuffleDwords != nil && tab.words != nil {
		ks.rowsShuffleDwords(d, s, rows, dstStride, srcStride, tab.words.bytes(), pat, pl.n, pl.dst, pl.src, rowIdx, run0, run1)
		return
	}
	ks.rowsShuffleNarrow(d, s, rows, dstStride, srcStride, tab.narrow.bytes(), pat, pl.n, pl.dst, pl.src, rowIdx, run0, run1)
}

// rowListShuffleBytes makes whole planes of narrow rows by a shuffle
// table, row t of each plane from src row l.idx[t], if the level in use
// has the kernel and a plane holds at most chunkBytes; it reports whether
// it did. One call makes a batch of planes of about chunkBytes.
func rowListShuffleBytes(dst, src []byte, pl planes, l *rowList, dstStride, srcStride, width, mid int, tab *shuffleTable, pat *[32]byte) bool {
	ks := kernelsInUse()
	if ks == nil || !ks.canShuffle(tab) || !shuffleFits(width, mid) {
		return false
	}
	return rowListBatches(dst, src, pl, l, dstStride, srcStride, width, mid, func(d, s []byte, pl planes) {
		ks.shuffle(&d[0], &s[0], src, len(l.idx), dstStride, srcStride, width, mid, tab, pat, pl, &l.idx[0], l.run0, l.run1)
	})
}

// rowListBatches calls kernel on the batches of whole planes pl of rows
// width bytes wide, dstStride apart, row t of each plane from src row
// l.idx[t] (mid bytes, srcStride apart), and reports true, if the list is
// not empty and a plane holds at most chunkBytes; else false.
func rowListBatches(dst, src []byte, pl planes, l *rowList, dstStride, srcStride, width, mid int, kernel func(d, s []byte, pl planes)) bool {
	plane := l.planeBytes(dstStride, width)
	if len(l.idx) == 0 || plane > chunkBytes {
		return false
	}
	planeBatches(dst, src, pl, plane, l.max*srcStride+mid, func(d, s []byte) {
		raceRowList(d, s, l.idx, dstStride, srcStride, width, mid)
	}, kernel)
	return true
}

// rowsShuffle256Bytes makes rows of 129 to 384 bytes by a shuffle256
// table if the level in use has the kernel, and reports whether it did.
func rowsShuffle256Bytes(dst, src []byte, pl planes, rows, dstStride, srcStride, width, mid int, tab *shuffle256Table) bool {
	ks := kernelsInUse()
	if ks == nil || ks.rowsShuffle256 == nil || !shuffle256Fits(width, mid) {
		return false
	}
	planeCalls(dst, src, pl, rows, dstStride, srcStride, width, mid, func(d, s *byte, rows int, pl planes) {
		ks.rowsShuffle256(d, s, rows, dstStride, srcStride, width, mid, tab.bytes(), pl.n, pl.dst, pl.src, nil, 0, 0)
	})
	return true
}

// rowListShuffle256Bytes makes whole planes as rowListShuffleBytes does,
// of rows of 129 to 384 bytes by a shuffle256 table, if the level in use
// has the kernel and a plane holds at most chunkBytes; it reports whether
// it did.
func rowListShuffle256Bytes(dst, src []byte, pl planes, l *rowList, dstStride, srcStride, width, mid int, tab *shuffle256Table) bool {
	ks := kernelsInUse()
	if ks == nil || ks.rowsShuffle256 == nil || !shuffle256Fits(width, mid) {
		return false
	}
	return rowListBatches(dst, src, pl, l, dstStride, srcStride, width, mid, func(d, s []byte, pl planes) {
		ks.rowsShuffle256(&d[0], &s[0], len(l.idx), dstStride, srcStride, width, mid, tab.bytes(), pl.n, pl.dst, pl.src, &l.idx[0], l.run0, l.run1)
	})
}

// rowListLinesBytes makes whole planes as rowListShuffleBytes does, the
// middle rows of each plane (the run of l) by the lines kernel and its
// other rows by the shuffle kernel, if the level in use has both, g has
// tables for these rows and the phases of every plane, and a plane holds
// at most chunkBytes; it reports whether it did.
func rowListLinesBytes(dst, src []byte, pl planes, l *rowList, dstStride, srcStride, width, mid int, g *linesSet, tab *shuffleTable, pat *[32]byte) bool {
	ks := kernelsInUse()
	rows, t0, t1 := len(l.idx), l.run0, l.run1
	plane := rows * width
	if ks == nil || ks.rowsLines == nil || ks.rowsShuffle == nil || g == nil || pl.n == 0 ||
		dstStride != width || g.width != width || g.srcStride != srcStride || plane > chunkBytes {
		return false
	}
	in := int(l.idx[t0]) * srcStride // the middle's first input byte in a plane
	if !g.covers(addrPhase(dst)+t0*width, addrPhase(src)+in, pl) {
		return false // not the phases of aligned buffers
	}
	b, limit := tab.bytes(), shuffleLoadLimit(src, mid)
	planeBatches(dst, src, pl, plane, l.max*srcStride+mid, func(d, s []byte) {
		raceRowList(d, s, l.idx, width, srcStride, width, mid)
	}, func(d, s []byte, pl planes) {
		linesMiddles(ks, d[t0*width:], s[in:], src, pl, (t1-t0)*width, g)
		if t0 > 0 {
			ks.rowsShuffle(&d[0], &s[0], t0, width, srcStride, width, mid, b, pat, pl.n, pl.dst, pl.src, &l.idx[0], 0, 0, limit)
		}
		if t1 < rows {
			ks.rowsShuffle(&d[t1*width], &s[0], rows-t1, width, srcStride, width, mid, b, pat, pl.n, pl.dst, pl.src, &l.idx[t1], 0, 0, limit)
		}
	})
	return true
}

// rowsLinesBytes makes rows rows of each of pl.n planes by the lines
// kernel, if the level in use has it and g has tables for the phases of
// every plane; it reports whether it did. Row t of plane p is width bytes
// (g.width) at dst byte p*pl.dst+t*width, from the input row at
// p*pl.src+t*g.srcStride of src.
func rowsLinesBytes(dst, src []byte, pl planes, rows int, g *linesSet) bool {
	ks := kernelsInUse()
	if ks == nil || ks.rowsLines == nil || g == nil || pl.n == 0 || rows == 0 ||
		!g.covers(addrPhase(dst), addrPhase(src), pl) {
		return false
	}
	width, srcStride, mid := g.width, g.srcStride, g.mid
	planeBatches(dst, src, pl, rows*width, (rows-1)*srcStride+mid, func(d, s []byte) {
		raceRows(d, s, rows, width, srcStride, width, mid)
	}, func(d, s []byte, pl planes) {
		linesMiddles(ks, d, s, src, pl, rows*width, g)
	})
	return true
}

// linesMiddles makes the middles of pl.n planes, size bytes each, from
// dst and src on (plane p at p*pl.dst and p*pl.src) by the lines kernel,
// the planes whose middles take one table one after another: suite case
// g's planes take four tables (then 3.7 KiB) in turn, and a table used
// every fourth plane came back from L2 each time. whole is the input the
// executor was given, from before the first plane.
func linesMiddles(ks *asmKernels, dst, src, whole []byte, pl planes, size int, g *linesSet) {
	cycle := max(64/gcd64(pl.dst), 64/gcd64(pl.src))
	for r := range min(cycle, pl.n) {
		for q := r; q < pl.n; q += cycle {
			md, ms := dst[q*pl.dst:], src[q*pl.src:]
			linesMiddle(ks, md, ms, whole, g.table(addrPhase(md), addrPhase(ms)), size, g)
		}
	}
}

// linesMiddle makes the size bytes of middle rows d from the input rows s
// by the lines kernel and table t, leaving to Go the blocks at the end
// whose windows would reach beyond the last 64-byte line of whole (the
// input the executor was given; s is inside it).
func linesMiddle(ks *asmKernels, d, s, whole []byte, t *linesTable, size int, g *linesSet) {
	dph := addrPhase(d)
	lo := -addrPhase(whole) - (len(whole) - len(s))  // whole's first line, from s
	hi := len(s) + (64-addrPhase(s[len(s)-1:])-1)&63 // the end of s's last line, from s
	cur := t.cur
	first := cur - 64
	if first < lo {
		first = cur // the first block takes nothing from there
	}
	n := (dph + size + 63) / 64
	full := n
	for n > 0 && cur+64*n > hi && cur+64*t.moves(n-1)+64 > hi { // a window moves at most once a block
		n--
	}
	if n > 0 {
		head, tail := ^uint64(0)<<dph, ^uint64(0)
		if end := (dph + size) & 63; n == full && end != 0 {
			tail = 1<<end - 1
		}
		ks.rowsLines(&d[0], &s[0], cur, first, n, &t.tab[0], t.entries, head, tail) // the kernel finds the lines
	}
	if done := min(64*n-dph, size); done < size {
		linesRowsGo(d, s, max(done, 0), size, g.srcStride, g.rowSrc)
	}
}

// rowsWideBytes makes rows of 128 bytes or more with pads of at most 64
// bytes by a head-and-tail table (shuffle.go) if the level in use has the
// kernel, and reports whether it did. Rows that follow each other take the
// aligned kernel where the output streams or alignedInCache is on.
func rowsWideBytes(dst, src []byte, pl planes, rows, dstStride, srcStride, width, mid, left int, tab *shuffleTable, pat *[32]byte, stream bool) bool {
	ks := wideKernels(width, mid, left)
	if ks == nil || !stream && halfLineRows(dst, src, pl, dstStride, srcStride, left, mid) {
		return false
	}
	if aligned := alignedFor(ks, dstStride, width, tab, stream); aligned != nil && (stream || alignedInCache) {
		alignedRows(aligned, dst, src, pl, rows, srcStride, width, mid, left, 0, 0, tab, pat)
		return true
	}
	b := tab.bytes()
	planeCalls(dst, src, pl, rows, dstStride, srcStride, width, mid, func(d, s *byte, rows int, pl planes) {
		ks.rowsWide(d, s, rows, dstStride, srcStride, width, mid, left, b, pat, pl.n, pl.dst, pl.src)
	})
	return true
}

// rowsEndsBytes makes rows with pads of at most 16 bytes by an ends table
// (rowsends.go) if the level in use has the kernel, and reports whether it
// did.
func rowsEndsBytes(dst, src []byte, pl planes, rows, dstStride, srcStride, width, mid, left int, tab *endsTable, pat *[32]byte) bool {
	ks := kernelsInUse()
	if ks == nil || ks.rowsEnds == nil || !endsFits(width, mid, left) {
		return false
	}
	b := tab.bytes()
	planeCalls(dst, src, pl, rows, dstStride, srcStride, width, mid, func(d, s *byte, rows int, pl planes) {
		ks.rowsEnds(d, s, rows, dstStride, srcStride, width, mid, left, b, pat, pl.n, pl.dst, pl.src)
	})
	return true
}

// rowsEndsWordsBytes makes rows of elements of 4 bytes or more with pads
// of at most 32 bytes by a word ends table (rowsends.go) if the level in
// use has the kernel (the AVX2 level for rows half a line off their
// input's phase: rowsKernelsFor), and reports whether it did.
func rowsEndsWordsBytes(dst, src []byte, pl planes, rows, dstStride, srcStride, width, mid, left int, tab *endsWordsTable, pat *[32]byte) bool {
	ks := rowsKernelsFor(dst, src, pl, dstStride, srcStride, left, mid)
	if ks == nil || ks.rowsEndsWords == nil || !endsWordsFits(width, mid, left) {
		return false
	}
	planeCalls(dst, src, pl, rows, dstStride, srcStride, width, mid, func(d, s *byte, rows int, pl planes) {
		ks.rowsEndsWords(d, s, rows, dstStride, srcStride, width, mid, left, tab.aAt, tab.bBefore, &tab.idx, pat, pl.n, pl.dst, pl.src)
	})
	return true
}

// wideKernels returns the kernels in use if they have the wide kernel and
// rows of width bytes from mid at left fit it (wideFits), else nil.
func wideKernels(width, mid, left int) *asmKernels {
	ks := kernelsInUse()
	if ks == nil || ks.rowsWide == nil || !wideFits(width, mid, left) {
		return nil
	}
	return ks
}

// alignedFor returns the aligned kernel for wide rows (wideFits) at
// dstStride, or nil. Rows that follow each other take it: at a width that
// is not a multiple of 64 every store of the wide kernel would straddle
// two cache lines, and streaming stores need whole aligned lines.
func alignedFor(ks *asmKernels, dstStride, width int, tab *shuffleTable, stream bool) alignedKernel {
	if dstStride != width || width%64 == 0 && !stream || !tab.copyAgrees {
		return nil
	}
	return ks.aligned(stream)
}

// rowsExpandPads makes planes of constant padding, each plane t.top pad
// bytes, t.rows rows and pad bytes up to t.plane, by the expand kernel
// (rowsexpand.go) when the level in use has it, the planes and their rows
// follow each other in dst and src, and dst starts on a 64-byte boundary
// (the table's phase, as Go's large allocations do); it reports whether
// it did. Each call makes whole periods of the table, so that each starts
// at its first mask; a table of the plan's planes only (expandTable.most)
// takes at most those, in one call.
func rowsExpandPads(dst, src []byte, pl planes, srcStride int, t *expandTable, pat *[32]byte) bool {
	ks := expandLevel(pl, srcStride, t)
	if ks == nil || addrPhase(dst) != 0 {
		return false
	}
	out, in := pl.n*t.plane, pl.n*t.rows*t.mid
	return expandCalls(ks, dst[:out], src[:in], t, pat)
}

// rowsExpandShifted makes the planes as rowsExpandPads does where dst
// starts off a line: the bytes before its first line boundary here, the
// others by the kernel with t's table shifted to that line
// (expandTable.shiftedBy). pats is the pattern twice, so that the pattern
// from the line on is a part of it: a rotated copy on the stack escaped
// (through the kernel's function value), and the kernels' own scratch
// would be shared by the goroutines of a split run. It reports whether it
// did.
func rowsExpandShifted(dst, src []byte, pl planes, srcStride int, t *expandTable, pats *[64]byte) bool {
	ks, delta := expandLevel(pl, srcStride, t), (64-addrPhase(dst))%64
	if ks == nil || delta == 0 || pl.n*t.plane < delta+64 {
		return false
	}
	out, in := pl.n*t.plane, pl.n*t.rows*t.mid
	taken := bits.OnesCount64(t.masks[0] & (1<<delta - 1)) // the input the head takes
	if taken == in {
		return false
	}
	if !(ks.expandWords(t) && delta%4 == 0) && ks.expandBytes(t) == nil {
		return false // the word kernel needs whole words from the line on
	}
	s := t.shiftedBy(delta)
	pat, rot := (*[32]byte)(pats[:32]), (*[32]byte)(pats[delta%32:])
	dst, src = dst[:out], src[:in]
	for i, k := 0, 0; i < delta; i++ {
		if t.masks[0]>>i&1 != 0 {
			dst[i] = src[k]
			k++
		} else {
			dst[i] = pat[i%32]
		}
	}
	return expandCalls(ks, dst[delta:], src[taken:], s, rot)
}

// expandLevel returns the kernels of the level in use if the planes pl
// and their rows follow each other as table t's do, or nil.
func expandLevel(pl planes, srcStride int, t *expandTable) *asmKernels {
	ks := kernelsInUse()
	if t == nil || ks == nil || pl.n == 0 || t.most > 0 && pl.n > t.most || pl.dst != t.plane || srcStride != t.mid || pl.src != t.rows*t.mid {
		return nil
	}
	return ks
}

// expandCalls makes dst (on a line, at the start of t's period) from src
// by the expand kernel of table t, whole periods a call, and reports
// whether the level has a kernel for t.
func expandCalls(ks *asmKernels, dst, src []byte, t *expandTable, pat *[32]byte) bool {
	words := ks.expandWords(t) && len(dst)%4 == 0 // the word kernel makes whole words
	byteKernel := ks.expandBytes(t)
	if !words && byteKernel == nil {
		return false
	}
	halves := ks.readsHalves() && t.halves != nil // rowsExpandBytes's tables, as codes
	out, in := len(dst), len(src)
	periods := max(1, chunkBytes/t.period)
	per, perIn := periods*t.period, periods*t.inBytes() // output and input of a call
	for o, i := 0, 0; o < out; o, i = o+per, i+perIn {
		n, s := min(per, out-o), &src[in-1] // past the input, the masks take nothing
		if i < in {
			s = &src[i]
		}
		if raceEnabled {
			raceWrite(dst[o : o+n])
			raceRead(src[min(i, in):min(i+perIn, in)])
		}
		end := pageEnd(src[:min(i+perIn, in)])
		switch {
		case words:
			ks.rowsExpandDwords(&dst[o], s, n, &t.dwords[0], 2*t.entries, pat, end)
		case halves:
			ks.rowsExpandHalves(&dst[o], s, n, &t.halves.blocks[0], t.entries, &t.halves.dict[0], pat, end)
		default:
			byteKernel(&dst[o], s, n, &t.masks[0], t.entries, pat, end)
		}
	}
	return true
}

// expandTakes reports whether the level in use has an expand kernel for
// table t.
func expandTakes(t *expandTable) bool {
	ks := kernelsInUse()
	return ks != nil && (ks.expandBytes(t) != nil || ks.expandWords(t))
}

// expandBytes returns the byte expand kernel of the level in use for
// table t, or nil: rowsExpand, or without it, for the tables of interior
// padding (width 0), rowsExpandBytes.
func (ks *asmKernels) expandBytes(t *expandTable) func(dst, src *byte, n int, tab *uint64, entries int, pat *[32]byte, srcEnd uintptr) {
	if ks.rowsExpand == nil && t.width == 0 {
		return ks.rowsExpandBytes
	}
	return ks.rowsExpand
}

// expandsHalves reports whether the tables of interior padding want the
// codes of their halves (expandTable.halves): where the level in use
// makes them by rowsExpandHalves, without rowsExpand.
func expandsHalves() bool {
	ks := kernelsInUse()
	return ks != nil && ks.readsHalves() || buildHalves
}

// readsHalves reports whether the level makes the tables of interior
// padding from their half codes: it has rowsExpandHalves and no rowsExpand
// (VBMI2's, which reads the masks).
func (ks *asmKernels) readsHalves() bool {
	return ks.rowsExpand == nil && ks.rowsExpandHalves != nil
}

// expandsRows reports whether the level in use makes runs of rows, tiny
// planes and runs of cubes by the expand kernels (asmKernels.expandsRows)
// with table t.
func expandsRows(t *expandTable) bool {
	ks := kernelsInUse()
	return ks != nil && ks.expandsRows && (ks.rowsExpand != nil || ks.expandWords(t))
}

// expandWords reports whether the planes of table t take the word expand
// kernel: where t has word masks and its rows are no wider than the
// kernel's bound (expandDwordsMaxWidth). At the AVX-512 level VPEXPANDD
// costs half the shuffle port VPEXPANDB does.
func (ks *asmKernels) expandWords(t *expandTable) bool {
	return ks.rowsExpandDwords != nil && t.dwords != nil &&
		(ks.expandDwordsMaxWidth == 0 || t.width <= ks.expandDwordsMaxWidth)
}

// rowsAlignedPads makes planes of wide rows (wideFits) that follow each
// other, each plane top bytes of the pattern, rows rows and bottom bytes of
// the pattern (pad rows of constant padding, top and bottom multiples of
// its period; dst and pl.dst count them), in one pass of the aligned kernel
// if the level in use has it for these rows and a plane holds at most
// chunkBytes; it reports whether it did.
func rowsAlignedPads(dst, src []byte, pl planes, rows, srcStride, width, mid, left, top, bottom int, tab *shuffleTable, pat *[32]byte, stream bool) bool {
	ks := wideKernels(width, mid, left)
	if ks == nil || rows == 0 || top+rows*width+bottom > chunkBytes {
		return false
	}
	aligned := alignedFor(ks, width, width, tab, stream)
	if aligned == nil {
		return false
	}
	alignedRows(aligned, dst, src, pl, rows, srcStride, width, mid, left, top, bottom, tab, pat)
	return true
}

// aligned returns the aligned rows kernel, or with stream its streaming
// version; nil where the level lacks it.
func (ks *asmKernels) aligned(stream bool) alignedKernel {
	if stream {
		return ks.rowsAlignedStream
	}
	return ks.rowsAligned
}

// alignedRows makes rows that follow each other in dst (dstStride ==
// width) by an aligned rows kernel, with top and bottom bytes of the
// pattern before and after each plane's rows (dst and pl.dst count them;
// when they are not 0 a plane holds at most chunkBytes with them).
func alignedRows(kernel alignedKernel, dst, src []byte, pl planes, rows, srcStride, width, mid, left, top, bottom int, tab *shuffleTable, pat *[32]byte) {
	b := tab.bytes()
	if top == 0 && bottom == 0 {
		planeCalls(dst, src, pl, rows, width, srcStride, width, mid, func(d, s *byte, rows int, pl planes) {
			kernel(d, s, rows, srcStride, width, mid, left, b, pat, pl.n, pl.dst, pl.src, 0, 0)
		})
		return
	}
	out := top + rows*width + bottom
	planeBatches(dst, src, pl, out, (rows-1)*srcStride+mid, func(d, s []byte) {
		raceWrite(d[:out])
		for r := range rows {
			raceRead(s[r*srcStride:][:mid])
		}
	}, func(d, s []byte, pl planes) {
		kernel(&d[top], &s[0], rows, srcStride, width, mid, left, b, pat, pl.n, pl.dst, pl.src, top, bottom)
	})
}

// planeCalls calls a kernel that loops over planes itself (the table
// kernels): once per batch of planes of at most about chunkBytes of output,
// or, for a bigger plane, once per chunk of its rows (rowChunks). Strides
// are >= 0, so the last row of a batch's last plane reaches farthest.
func planeCalls(dst, src []byte, pl planes, rows, dstStride, srcStride, width, mid int, kernel func(d, s *byte, rows int, pl planes)) {
	if rows == 0 || pl.n == 0 {
		return
	}
	plane := (rows-1)*dstStride + width // output bytes of a plane, from its first
	if plane > chunkBytes {
		rowChunks(dst, src, pl, rows, dstStride, srcStride, width, mid, func(d, s *byte, n int) {
			kernel(d, s, n, onePlane)
		})
		return
	}
	planeBatches(dst, src, pl, plane, (rows-1)*srcStride+mid, func(d, s []byte) {
		raceRows(d, s, rows, dstStride, srcStride, width, mid)
	}, func(d, s []byte, pl planes) {
		kernel(&d[0], &s[0], rows, pl)
	})
}

// planeBatches calls kernel once per batch of planes of about chunkBytes
// of output, with dst and src from the batch's first plane on, after
// checking that dst and src hold the batch (a plane's output reaches
// dstReach bytes from its first, its input srcReach; strides are >= 0, so
// the batch's last plane reaches farthest) and, with the race detector,
// reporting each plane's memory by race.
func planeBatches(dst, src []byte, pl planes, dstReach, srcReach int, race func(d, s []byte), kernel func(d, s []byte, pl planes)) {
	per := max(1, chunkBytes/max(pl.dst, 1)) // planes per call
	for p := 0; p < pl.n; p += per {
		n := min(per, pl.n-p)
		d, s := dst[p*pl.dst:], src[p*pl.src:]
		_ = d[(n-1)*pl.dst+dstReach-1]
		_ = s[(n-1)*pl.src+srcReach-1]
		if raceEnabled {
			for q := range n {
				race(d[q*pl.dst:], s[q*pl.src:])
			}
		}
		kernel(d, s, planes{n, pl.dst, pl.src})
	}
}

// raceRowList reports to the race detector the rows of a plane made from
// the input rows rowIdx lists.
func raceRowList(d, s []byte, rowIdx []int32, dstStride, srcStride, width, mid int) {
	for t, i := range rowIdx {
		raceWrite(d[t*dstStride:][:width])
		raceRead(s[int(i)*srcStride:][:mid])
	}
}

// rowChunks calls kernel for the rows of each plane in chunks of at most
// about chunkBytes of output, after checking that dst and src hold them
// (the assembly trusts its arguments) and reporting them to the race
// detector. Planes made from one input plane (pl.src == 0: edge padding of
// an outer axis) take each chunk in turn, so that the input is read from
// memory once, not once per plane.
func rowChunks(dst, src []byte, pl planes, rows, dstStride, srcStride, width, mid int, kernel func(d, s *byte, n int)) {
	per := max(1, chunkBytes/max(dstStride, 1)) // rows per call
	chunk := func(p, r0 int) {
		n := min(rows-r0, per)
		d, s := dst[p*pl.dst+r0*dstStride:], src[p*pl.src+r0*srcStride:]
		_ = d[(n-1)*dstStride+width-1]
		if mid > 0 { // rows of pads only read nothing
			_ = s[(n-1)*srcStride+mid-1]
		}
		raceRows(d, s, n, dstStride, srcStride, width, mid)
		kernel(&d[0], &s[0], n)
	}
	if pl.src == 0 {
		for r0 := 0; r0 < rows; r0 += per {
			for p := range pl.n {
				chunk(p, r0)
			}
		}
		return
	}
	for p := range pl.n {
		for r0 := 0; r0 < rows; r0 += per {
			chunk(p, r0)
		}
	}
}

// planeTablesTake reports whether the level in use makes planes of the
// innermost level's rows by a plane table of t.
func planeTablesTake(t *sizeTables) bool {
	ks := kernelsInUse()
	if ks == nil {
		return false
	}
	if e := t.expand; e != nil && e.plane <= planeExpandMax && expandsRows(e) {
		return true
	}
	blocks := ks.planeBlocks != nil || t.blocks != nil && t.blocks.byAVX2 || t.blockGroups != nil && t.blockGroups.byAVX2
	return t.plane != nil && ks.canShuffle(&t.plane.tab) ||
		(t.chunks != nil || t.chunkGroups != nil) && ks.planeChunks != nil ||
		(t.blocks != nil || t.blockGroups != nil) && blocks
}

// generalRowsTake reports whether the level in use makes rows of a
// general form (dilated, or past their period) by t's shuffle table.
func generalRowsTake(t *sizeTables, stream bool) bool {
	ks, g := kernelsInUse(), t.generalRows
	return ks != nil && g != nil && (g.tab != nil && ks.canShuffle(g.tab) && shuffleFits(g.width, g.mid) ||
		g.tab256 != nil && ks.rowsShuffle256 != nil && !stream)
}

// interiorKernelsInUse reports whether the level in use has a kernel for
// the tables of interior padding.
func interiorKernelsInUse() bool {
	ks := kernelsInUse()
	return ks != nil && (ks.rowsExpand != nil || ks.rowsExpandBytes != nil)
}
