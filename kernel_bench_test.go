package pad

import (
	"fmt"
	"testing"

	"github.com/tensorpad/pad/internal/suite"
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

// BenchmarkStream times the streaming kernels against their ordinary
// versions on outputs far larger than the cache (16 MiB), where they are
// used (streamMinBytes): copy (with the runtime's memmove, which streams
// from 1 MiB, 32 bytes a store) and the aligned rows kernel on rows of 4112
// bytes from 4096 (suite case h's rows, edge padding).
//
//	go test -run '^$' -bench Stream -count 10 | tee s.txt
//	benchstat -col /kernel s.txt
func BenchmarkStream(b *testing.B) {
	var ks *asmKernels
	for i := range asmKernelSets {
		if asmKernelSets[i].level == active {
			ks = &asmKernelSets[i]
		}
	}
	if ks == nil || ks.copyStream == nil {
		b.Skip("no streaming kernels at this level")
	}
	const n = 16 << 20
	src, dst := benchBytes(n), benchBytes(n)
	pat := patternOf([]byte{1, 2, 3, 4})
	bench := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(n)
			b.ReportAllocs()
			for b.Loop() {
				f()
			}
		})
	}
	bench("op=copy/kernel=memmove", func() { copy(dst, src) })
	bench("op=copy/kernel=copy", func() { ks.copy(&dst[0], &src[0], n) })
	bench("op=copy/kernel=copyStream", func() { ks.copyStream(&dst[0], &src[0], n); storeFence() })
	if ks.rowsAligned == nil || ks.rowsAlignedStream == nil {
		return
	}
	const mid, left, width = 4096, 8, 4112
	rows := n / width
	tab := wideTable(width, mid, left, func(i int) int { return min(max(i-left, 0), mid-1) })
	bench("op=rows/kernel=rowsAligned", func() {
		ks.rowsAligned(&dst[0], &src[0], rows, mid, width, mid, left, tab.bytes(), pat, 1, 0, 0, 0, 0)
	})
	bench("op=rows/kernel=rowsAlignedStream", func() {
		ks.rowsAlignedStream(&dst[0], &src[0], rows, mid, width, mid, left, tab.bytes(), pat, 1, 0, 0, 0, 0)
		storeFence()
	})
}

// BenchmarkCopyFloor copies the output bytes of each suite case
// (BenchmarkSuite's) with the runtime's memmove and with every copy kernel
// this machine has: the time a pad of that case takes if it did nothing but
// write its output from an input as large. A pad reads a little less than
// it writes, so no pad is much below the fastest of these for its case's
// size; where all of them take the memmove's time (outputs that stay in L2,
// like case e's 266 KiB), so does the best pad.
//
//	go test -run '^$' -bench CopyFloor -count 10 | tee f.txt
//	benchstat -col /copy f.txt
func BenchmarkCopyFloor(b *testing.B) {
	cases, _, err := suite.LoadOrBuiltin(suite.PeersPath)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range cases {
		r, err := c.Resolve()
		if err != nil {
			b.Fatal(err)
		}
		n := r.OutBytes()
		if n < 64 {
			continue // case i: per-call overhead, not a copy
		}
		src, dst := suite.AlignedBytes(n), suite.AlignedBytes(n)
		copy(src, benchBytes(n))
		copy(dst, src) // both written: an untouched page reads as the zero page
		bench := func(name string, f func()) {
			b.Run("case="+c.Name+"/copy="+name, func(b *testing.B) {
				b.SetBytes(int64(n))
				b.ReportAllocs()
				for b.Loop() {
					f()
				}
			})
		}
		bench("memmove", func() { copy(dst, src) })
		for _, ks := range asmKernelSets {
			if !ks.supported {
				continue
			}
			bench(ks.level.String(), func() { ks.copy(&dst[0], &src[0], n) })
			if ks.copyRep != nil {
				bench("rep-"+ks.level.String(), func() { ks.copyRep(&dst[0], &src[0], n) })
			}
			if ks.copyStream != nil {
				bench("stream-"+ks.level.String(), func() { ks.copyStream(&dst[0], &src[0], n); storeFence() })
			}
		}
	}
}
