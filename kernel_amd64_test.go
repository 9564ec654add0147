//go:build gc && !purego && !noasm

package pad

import "golang.org/x/sys/cpu"

var asmKernelSets = []asmKernels{
	{
		level:     levelAVX2,
		supported: cpu.X86.HasAVX2,
		fill:      fillAVX2,
		copy:      copyAVX2,
		reverse:   [5]func(dst, src *byte, n int){reverse1AVX2, reverse2AVX2, reverse4AVX2, reverse8AVX2, reverse16AVX2},
		rowsConst: rowsConstAVX2,
		rowsEdge: [5]func(dst, src *byte, rows, dstStride, srcStride, left, mid, right int){
			rowsEdge1AVX2, rowsEdge2AVX2, rowsEdge4AVX2, rowsEdge8AVX2, rowsEdge16AVX2},
		rowsMirror: [5]func(dst, src *byte, rows, dstStride, srcStride, left, mid, right, leftFrom, rightFrom int){
			rowsMirror1AVX2, rowsMirror2AVX2, rowsMirror4AVX2, rowsMirror8AVX2, rowsMirror16AVX2},
	},
	{
		level:     levelAVX512,
		supported: bestLevel() == levelAVX512,
		fill:      fillAVX512,
		copy:      copyAVX512,
		reverse:   [5]func(dst, src *byte, n int){reverse1AVX512, reverse2AVX512, reverse4AVX512, reverse8AVX512, reverse16AVX512},
		rowsConst: rowsConstAVX512,
		rowsEdge: [5]func(dst, src *byte, rows, dstStride, srcStride, left, mid, right int){
			rowsEdge1AVX512, rowsEdge2AVX512, rowsEdge4AVX512, rowsEdge8AVX512, rowsEdge16AVX512},
		rowsMirror: [5]func(dst, src *byte, rows, dstStride, srcStride, left, mid, right, leftFrom, rightFrom int){
			rowsMirror1AVX512, rowsMirror2AVX512, rowsMirror4AVX512, rowsMirror8AVX512, rowsMirror16AVX512},
	},
}
