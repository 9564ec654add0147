//go:build amd64 && gc && !purego && !noasm

package pad

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tensorpad/pad/internal/suite"
)

// TestHalfLineRows: rows whose middles lie 32 bytes off their input's line
// phase (suite case e's shape) take the AVX2 rows kernels at the AVX-512
// level (halfLineRows); every mode, element size and plane layout must give
// the reference's bytes, and a geometry off the 32-byte grid must not be
// taken for one.
func TestHalfLineRows(t *testing.T) {
	if ks := kernelsInUse(); ks == nil || ks.level != levelAVX512 {
		t.Skip("the AVX-512 kernels are not in use")
	}
	r := rand.New(rand.NewPCG(5, 6))
	modes := []Mode{Constant, Edge, Reflect, Symmetric, Wrap}
	for _, size := range []int{1, 2, 4, 8, 16} {
		for _, mode := range modes {
			for _, midBytes := range []int{halfLineMinMid, 1024, 4096} {
				// [planes, rows, cols]; cols padded by 32 bytes on each side,
				// rows by one on each side in some cases (pad rows around
				// the middles, made by other kernels).
				cols, pad := midBytes/size, 32/size
				for _, rowPad := range []int{0, 1} {
					shape := []int{2, 3, cols}
					spec := Spec{Mode: mode, Before: []int{0, rowPad, pad}, After: []int{0, rowPad, pad}}
					name := fmt.Sprintf("size=%d/%v/mid=%d/rowpad=%d", size, mode, midBytes, rowPad)
					t.Run(name, func(t *testing.T) {
						src := suite.AlignedBytes(2 * 3 * cols * size)
						for i := range src {
							src[i] = byte(r.Uint32())
						}
						value := randomBytes(r, size)
						want, outShape, err := refPad(src, size, shape, spec, value)
						if err != nil {
							t.Fatal(err)
						}
						dst := suite.AlignedBytes(len(want))
						dstStride, srcStride := (cols+2*pad)*size, cols*size
						row := dst[rowPad*dstStride:] // the first middle row's output
						if !halfLineRows(row, src, planes{2, outShape[1] * dstStride, 3 * srcStride}, dstStride, srcStride, 32, midBytes) {
							t.Fatalf("halfLineRows is false for %v", outShape)
						}
						p, err := newExecPlan(shape, spec)
						if err != nil {
							t.Fatal(err)
						}
						for run := range 3 { // the tables' runs and after
							clear(dst)
							if err := p.RunBytes(dst, src, size, value); err != nil {
								t.Fatal(err)
							}
							if !bytes.Equal(dst, want) {
								t.Fatalf("run %d: output differs from the reference at byte %d", run, firstDiff(dst, want))
							}
						}
					})
				}
			}
		}
	}
	// Reflected float64 rows of a half-line plane take the AVX2 level's
	// word ends kernel, which the AVX-512 set has only without VBMI.
	if avx2 := kernelsAt(levelAVX2); avx2 != nil && avx2.rowsEndsWords != nil {
		calls := 0
		kernel := avx2.rowsEndsWords
		setForTest(t, &avx2.rowsEndsWords, func(dst, src *byte, rows, dstStride, srcStride, width, mid, left, aAt, bBefore int, tab *[128]byte, pat *[32]byte, planes, dstPlane, srcPlane int) {
			calls++
			kernel(dst, src, rows, dstStride, srcStride, width, mid, left, aAt, bBefore, tab, pat, planes, dstPlane, srcPlane)
		})
		shape := []int{1, 22, 40, 40}
		spec := Spec{Mode: Reflect, Before: []int{0, 0, 4, 4}, After: []int{0, 0, 4, 4}}
		in := suite.AlignedBytes(8 * prod(shape))
		for i := range in {
			in[i] = byte(r.Uint32())
		}
		want, _, _ := refPad(in, 8, shape, spec, nil)
		dst := suite.AlignedBytes(len(want))
		p, err := newExecPlan(shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 { // the tables' run and after
			if err := p.RunBytes(dst, in, 8, nil); err != nil || !bytes.Equal(dst, want) {
				t.Fatalf("%v %v: output differs from the reference (%v)", shape, spec, err)
			}
		}
		if ks := kernelsInUse(); ks.rowsEndsWords == nil && calls == 0 {
			t.Errorf("%v %v: the AVX2 word ends kernel was not called", shape, spec)
		}
	}

	// Off the grid: a dst 16 bytes off, strides that change the phase row
	// by row, a short middle, the AVX2 level.
	src := suite.AlignedBytes(4096 * 4)
	dst := suite.AlignedBytes(4160*4 + 64)
	for _, c := range []struct {
		name                            string
		dst                             []byte
		dstStride, srcStride, left, mid int
	}{
		{"dst 16 bytes off", dst[16:], 4160, 4096, 32, 4096},
		{"phase moves row by row", dst, 4128, 4096, 32, 4096},
		{"in phase", dst, 4160, 4096, 64, 4096},
		{"short middle", dst, 288, 224, 32, 224},
	} {
		if halfLineRows(c.dst, src, onePlane, c.dstStride, c.srcStride, c.left, c.mid) {
			t.Errorf("%s: halfLineRows is true", c.name)
		}
	}
	withLevel(levelAVX2, func() {
		if halfLineRows(dst, src, onePlane, 4160, 4096, 32, 4096) {
			t.Error("halfLineRows is true at the AVX2 level")
		}
	})
}
