//go:build race

package pad

import (
	"runtime"
	"unsafe"
)

// The race detector does not see memory that assembly touches; the
// wrappers of the kernels report it here, so that -race finds a data race
// on a tensor however it is padded.

const raceEnabled = true

func raceRead(b []byte) {
	if len(b) > 0 {
		runtime.RaceReadRange(unsafe.Pointer(&b[0]), len(b))
	}
}

func raceWrite(b []byte) {
	if len(b) > 0 {
		runtime.RaceWriteRange(unsafe.Pointer(&b[0]), len(b))
	}
}

// raceRows reports rows rows of a rows kernel: each dst row written, each
// src row read.
func raceRows(dst, src []byte, rows, dstStride, srcStride, width, mid int) {
	for r := 0; r < rows; r++ {
		raceWrite(dst[r*dstStride : r*dstStride+width])
		raceRead(src[r*srcStride : r*srcStride+mid])
	}
}
