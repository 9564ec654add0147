package pad

import (
	"fmt"
	"testing"
)

// Benchmarks of the generic path on a few typical shapes, each beside a
// copy of the same number of output bytes measured in the same run: compare
// the two with benchstat. The peer suite and cmd/padbench come later.
var benchCases = []struct {
	name  string
	shape []int
	spec  Spec
}{
	{"nchw-constant", []int{1, 64, 56, 56}, Spec{Before: []int{0, 0, 1, 1}, After: []int{0, 0, 1, 1}}},
	{"nchw-reflect", []int{1, 64, 56, 56}, Spec{Mode: Reflect, Before: []int{0, 0, 3, 3}, After: []int{0, 0, 3, 3}}},
	{"nhwc-edge", []int{1, 224, 224, 3}, Spec{Mode: Edge, Before: []int{0, 2, 2, 0}, After: []int{0, 2, 2, 0}}},
	{"rows-wrap", []int{512, 100}, Spec{Mode: Wrap, Before: []int{0, 30}, After: []int{0, 30}}},
	{"tiny-constant", []int{2, 3}, Spec{Before: []int{1, 1}, After: []int{1, 1}}},
}

func BenchmarkPad(b *testing.B) {
	for _, c := range benchCases {
		p, err := NewPlan(c.shape, c.spec)
		if err != nil {
			b.Fatal(err)
		}
		src := make([]float32, prod(c.shape))
		dst := make([]float32, prod(p.OutShape()))
		for i := range src {
			src[i] = float32(i)
		}
		bytes := int64(4 * (len(src) + len(dst)))
		b.Run(c.name+"/pad", func(b *testing.B) {
			b.SetBytes(bytes)
			b.ReportAllocs()
			for b.Loop() {
				if err := Run(p, dst, src, 1.5); err != nil {
					b.Fatal(err)
				}
			}
		})
		out := make([]float32, len(dst))
		b.Run(c.name+"/copy", func(b *testing.B) {
			b.SetBytes(bytes)
			b.ReportAllocs()
			for b.Loop() {
				copy(out, dst)
			}
		})
	}
}

func prod(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

func ExampleKernels() {
	fmt.Println(Kernels() != "")
	// Output: true
}
