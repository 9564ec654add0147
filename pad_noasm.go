//go:build !(amd64 || arm64) || !gc || purego || noasm

package pad

// Without assembly every kernel is the Go version.

func bestLevel() kernelLevel { return levelGo }

var asmKernelSets []asmKernels

func cpuFeatures() []string { return []string{"no assembly in this build"} }

func storeFence() {}

func fillBytes(b []byte, pat *[32]byte) { fillGo(b, pat) }

func copyBytes(dst, src []byte, _ bool) { copy(dst, src) }

func reverseBytes(dst, src []byte, size int) { reverseGo(dst, src, size) }

func rowsConstBytes(dst, src []byte, pl planes, rows, dstStride, srcStride, left, mid, right int, pat *[32]byte, _ bool) {
	for p := range pl.n {
		rowsConstGo(dst[p*pl.dst:], src[p*pl.src:], rows, dstStride, srcStride, left, mid, right, pat)
	}
}

func rowsShiftedBytes([]byte, []byte, planes, int, int, int, int, int, int, *[32]byte) bool {
	return false
}

func rowsEdgeBytes(dst, src []byte, size int, pl planes, rows, dstStride, srcStride, left, mid, right int) {
	for p := range pl.n {
		rowsEdgeGo(dst[p*pl.dst:], src[p*pl.src:], size, rows, dstStride, srcStride, left, mid, right)
	}
}

// rowsMirrorBytes: mirrored rows (reflect and symmetric of short rows),
// size a kernel size.
func rowsMirrorBytes(dst, src []byte, size int, pl planes, rows, dstStride, srcStride, left, mid, right, leftFrom, rightFrom int) {
	for p := range pl.n {
		rowsMirrorGo(dst[p*pl.dst:], src[p*pl.src:], size, rows, dstStride, srcStride, left, mid, right, leftFrom, rightFrom)
	}
}

func rowsWrapBytes(dst, src []byte, pl planes, rows, dstStride, srcStride, left, mid, right, leftFrom, rightFrom int) {
	for p := range pl.n {
		rowsWrapGo(dst[p*pl.dst:], src[p*pl.src:], rows, dstStride, srcStride, left, mid, right, leftFrom, rightFrom)
	}
}

func rowsPiecesBytes([]byte, []byte, planes, int, int, int, int, int, []int32) bool { return false }

func shuffleInUse() bool { return false }

func shuffleTakes(*shuffleTable) bool { return false }

func repCopiesOn() bool { return false }

func repDirection(int) int { return 0 }

func rowsShuffleBytes([]byte, []byte, planes, int, int, int, int, int, *shuffleTable, *[32]byte) bool {
	return false
}

func planeChunksBytes([]byte, []byte, planes, *chunkTable) bool { return false }

func rowGroupsBytes([]byte, []byte, planes, int, *rowGroupTable, *[32]byte) bool { return false }

func planeBlocksBytes([]byte, []byte, planes, *blockTable, bool, *[32]byte) bool     { return false }
func planeBlocksAVX2Bytes([]byte, []byte, planes, *blockTable, bool, *[32]byte) bool { return false }

func rowListShuffleBytes([]byte, []byte, planes, *rowList, int, int, int, int, *shuffleTable, *[32]byte) bool {
	return false
}

func rowListShuffle256Bytes([]byte, []byte, planes, *rowList, int, int, int, int, *shuffle256Table) bool {
	return false
}

func rowsShuffle256Bytes([]byte, []byte, planes, int, int, int, int, int, *shuffle256Table) bool {
	return false
}

func rowListLinesBytes([]byte, []byte, planes, *rowList, int, int, int, int, *linesSet, *shuffleTable, *[32]byte) bool {
	return false
}

func rowsLinesBytes([]byte, []byte, planes, int, *linesSet) bool { return false }

func rowsEndsBytes([]byte, []byte, planes, int, int, int, int, int, int, *endsTable, *[32]byte) bool {
	return false
}

func rowsEndsWordsBytes([]byte, []byte, planes, int, int, int, int, int, int, *endsWordsTable, *[32]byte) bool {
	return false
}

func rowsWideBytes([]byte, []byte, planes, int, int, int, int, int, int, *shuffleTable, *[32]byte, bool) bool {
	return false
}

func expandsRows(*expandTable) bool { return false }

func expandTakes(*expandTable) bool { return false }

func expandsHalves() bool { return false }

func rowsExpandPads([]byte, []byte, planes, int, *expandTable, *[32]byte) bool { return false }

func rowsExpandShifted([]byte, []byte, planes, int, *expandTable, *[64]byte) bool { return false }

func rowsAlignedPads([]byte, []byte, planes, int, int, int, int, int, int, int, *shuffleTable, *[32]byte, bool) bool {
	return false
}

func planeTablesTake(*sizeTables) bool { return false }

func generalRowsTake(*sizeTables, bool) bool { return false }

func interiorKernelsInUse() bool { return false }
