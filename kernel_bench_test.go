package pad

import (
	"fmt"
	"testing"
)

// BenchmarkKernels times each byte kernel at each level this machine has
// against its Go version, in the same run, on runs of the given bytes
// (element size 4; rows: 64 rows of 16 bytes left, the run, 16 bytes
// right). Compare the levels with
//
//	go test -run '^$' -bench Kernels -count 10 | tee k.txt
//	benchstat -col /level k.txt
func BenchmarkKernels(b *testing.B) {
	type impl struct {
		level     string
		fill      func(dst []byte, pat *[32]byte)
		copy      func(dst, src []byte)
		reverse   func(dst, src []byte)
		rowsConst func(dst, src []byte, rows, dstStride, srcStride, left, mid, right int, pat *[32]byte)
		rowsEdge  func(dst, src []byte, rows, dstStride, srcStride, left, mid, right int)
	}
	impls := []impl{{
		level:     "go",
		fill:      fillGo,
		copy:      func(dst, src []byte) { copy(dst, src) },
		reverse:   func(dst, src []byte) { reverseGo(dst, src, 4) },
		rowsConst: rowsConstGo,
		rowsEdge: func(dst, src []byte, rows, ds, ss, l, m, r int) {
			rowsEdgeGo(dst, src, 4, rows, ds, ss, l, m, r)
		},
	}}
	for _, ks := range asmKernelSets {
		if !ks.supported {
			continue
		}
		impls = append(impls, impl{
			level:   ks.level.String(),
			fill:    func(dst []byte, pat *[32]byte) { ks.fill(&dst[0], len(dst), pat) },
			copy:    func(dst, src []byte) { ks.copy(&dst[0], &src[0], len(dst)) },
			reverse: func(dst, src []byte) { ks.reverse[2](&dst[0], &src[0], len(dst)) },
			rowsConst: func(dst, src []byte, rows, ds, ss, l, m, r int, pat *[32]byte) {
				ks.rowsConst(&dst[0], &src[0], rows, ds, ss, l, m, r, pat)
			},
			rowsEdge: func(dst, src []byte, rows, ds, ss, l, m, r int) {
				ks.rowsEdge[2](&dst[0], &src[0], rows, ds, ss, l, m, r)
			},
		})
	}
	pat := patternOf([]byte{1, 2, 3, 4})
	const rows, pad = 64, 16
	for _, n := range benchKernelLengths {
		src := benchBytes(n * rows)
		dst := benchBytes((n + 2*pad) * rows)
		run := func(name string, bytes int, f func(im impl)) {
			for _, im := range impls {
				b.Run(fmt.Sprintf("kernel=%s/n=%d/level=%s", name, n, im.level), func(b *testing.B) {
					b.SetBytes(int64(bytes))
					b.ReportAllocs()
					for b.Loop() {
						f(im)
					}
				})
			}
		}
		run("fill", n, func(im impl) { im.fill(dst[:n], pat) })
		run("copy", n, func(im impl) { im.copy(dst[:n], src[:n]) })
		run("reverse", n, func(im impl) { im.reverse(dst[:n], src[:n]) })
		w := n + 2*pad
		run("rowsConst", rows*w, func(im impl) { im.rowsConst(dst, src, rows, w, n, pad, n, pad, pat) })
		run("rowsEdge", rows*w, func(im impl) { im.rowsEdge(dst, src, rows, w, n, pad, n, pad) })
	}
}

// benchBytes returns n bytes for a benchmark's buffer, every one written.
// A fresh allocation's pages are not backed until written: a kernel
// reading them reads the kernel's shared zero page, which stays in L1,
// and would be timed as if its input were in cache.
func benchBytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + 1)
	}
	return b
}

// The run lengths BenchmarkKernels tries.
var benchKernelLengths = []int{4, 16, 64, 256, 4096, 65536}
