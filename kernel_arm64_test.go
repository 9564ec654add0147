//go:build gc && !purego && !noasm

package pad

import "golang.org/x/sys/cpu"

var asmKernelSets = []asmKernels{{
	level:     levelNEON,
	supported: cpu.ARM64.HasASIMD,
	fill:      fillNEON,
	copy:      copyNEON,
	reverse:   [5]func(dst, src *byte, n int){reverse1NEON, reverse2NEON, reverse4NEON, reverse8NEON, reverse16NEON},
	rowsConst: rowsConstNEON,
	rowsEdge: [5]func(dst, src *byte, rows, dstStride, srcStride, left, mid, right int){
		rowsEdge1NEON, rowsEdge2NEON, rowsEdge4NEON, rowsEdge8NEON, rowsEdge16NEON},
}}
