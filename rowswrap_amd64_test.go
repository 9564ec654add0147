//go:build amd64 && unix && gc && !purego && !noasm

package pad

// Tests of the wrap kernels (rowsWrapAVX2, rowsWrapAVX512) against their Go
// version: pads of 0 to 200 bytes read from anywhere in the row, over mids
// around the size ladder's and the vector loops' steps, between canaries
// with gaps between rows and broadcast src rows, then against PROT_NONE
// pages; a fuzz target. TestRandomAgainstReference and the grids run them
// through plans (wrap padding).

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

type wrapCase struct {
	rowsGeometry
	right, leftFrom, rightFrom int
}

func (c *wrapCase) String() string {
	return fmt.Sprintf("%v right %d leftFrom %d rightFrom %d", &c.rowsGeometry, c.right, c.leftFrom, c.rightFrom)
}

func (c *wrapCase) goVersion(dst, src []byte) {
	for p := range c.pl.n {
		rowsWrapGo(dst[p*c.pl.dst:], src[p*c.pl.src:], c.rows, c.dstStride, c.srcStride, c.left, c.mid, c.right, c.leftFrom, c.rightFrom)
	}
}

// asm calls the kernel once per plane: it has no planes argument.
func (c *wrapCase) asm(ks asmKernels, dst, src []byte) {
	for p := range c.pl.n {
		ks.rowsWrap(&dst[p*c.pl.dst], &src[p*c.pl.src], c.rows, c.dstStride, c.srcStride, c.left, c.mid, c.right, c.leftFrom, c.rightFrom)
	}
}

// randomWrapCase draws a geometry and where the pads read: anywhere in the
// row, as wrap padding's pads (the row's end, its start) are one case.
func randomWrapCase(r *rand.Rand, left, mid, right int) *wrapCase {
	c := &wrapCase{rowsGeometry: randomRowsGeometry(r, left, mid, right), right: right}
	c.leftFrom, c.rightFrom = r.IntN(mid-left+1), r.IntN(mid-right+1)
	if r.IntN(2) == 0 { // wrap padding
		c.leftFrom, c.rightFrom = mid-left, 0
	}
	return c
}

// wrapKernelSets returns the supported levels that have the kernel.
func wrapKernelSets(t testing.TB) []asmKernels {
	return kernelSetsWith(t, "wrap", func(ks *asmKernels) bool { return ks.rowsWrap != nil })
}

// kernelSetsWith returns the kernel sets of the supported levels that has
// reports true of, and skips the test where there is none (the CPU has no
// AVX2: no such kernel, named name).
func kernelSetsWith(t testing.TB, name string, has func(ks *asmKernels) bool) []asmKernels {
	var sets []asmKernels
	for i := range asmKernelSets {
		if ks := &asmKernelSets[i]; ks.supported && has(ks) {
			sets = append(sets, *ks)
		}
	}
	if len(sets) == 0 {
		t.Skipf("the CPU has no AVX2: no %s kernel", name)
	}
	return sets
}

var (
	wrapMids = []int{1, 2, 7, 16, 31, 32, 33, 64, 100, 127, 128, 129, 255, 256, 257, 300, 1000, 4100}
	wrapPads = []int{0, 1, 3, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 200}
)

func TestRowsWrapKernel(t *testing.T) {
	for _, ks := range wrapKernelSets(t) {
		t.Run(ks.level.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(51, 52))
			calls := 0
			for _, mid := range wrapMids {
				for _, left := range wrapPads {
					for _, right := range wrapPads {
						if left > mid || right > mid {
							continue
						}
						checkCanaries(t, r, ks, randomWrapCase(r, left, mid, right), byte(left))
						calls++
					}
				}
			}
			t.Logf("%d calls", calls)
		})
	}
}

func TestRowsWrapGuard(t *testing.T) {
	for _, ks := range wrapKernelSets(t) {
		t.Run(ks.level.String(), func(t *testing.T) {
			sdata, ddata, unmap := guardPages(t, 2)
			defer unmap()
			r := rand.New(rand.NewPCG(53, 54))
			calls := 0
			for _, mid := range wrapMids {
				for _, left := range []int{0, 1, 32, 129} {
					for _, right := range []int{0, 7, 64} {
						if left > mid || right > mid {
							continue
						}
						for pos := range 8 {
							if checkGuarded(t, r, ks, randomWrapCase(r, left, mid, right), sdata, ddata, pos%4) {
								calls++
							}
						}
					}
				}
			}
			t.Logf("%d guarded calls", calls)
		})
	}
}

func FuzzRowsWrap(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		r := rand.New(rand.NewPCG(a, b))
		for _, ks := range wrapKernelSets(t) {
			mid := 1 + r.IntN(600)
			left, right := r.IntN(mid+1), r.IntN(mid+1)
			checkCanaries(t, r, ks, randomWrapCase(r, left, mid, right), byte(a))
		}
	})
}
