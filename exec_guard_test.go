//go:build unix && !purego && !noasm

package pad

import (
	"math/rand/v2"
	"testing"
)

// TestAcrossRuns runs random rank-4 plans of small cubes that go across
// at every level in use, with dst and src against guard pages, against
// the reference (the kernels take blocks dstStep apart there).
func TestAcrossRuns(t *testing.T) {
	levels := supportedLevels(func(*asmKernels) bool { return true })
	r := rand.New(rand.NewPCG(133, 134))
	runRandomPlans(t, r, levels, 300, 3, func() ([]int, Spec, int, []byte) {
		es := 1 << r.IntN(4)
		shape := []int{1 + r.IntN(32), 1 + r.IntN(3), 1 + r.IntN(10), 1 + r.IntN(24)} // at most 737 KiB out
		mode := Mode(r.IntN(int(Symmetric) + 1))
		spec := Spec{Mode: mode, Before: make([]int, 4), After: make([]int, 4)}
		for a := 1; a < 4; a++ {
			pad := func() int {
				if mode == Constant {
					return r.IntN(4)
				}
				return r.IntN(min(shape[a], 3))
			}
			spec.Before[a], spec.After[a] = pad(), pad()
		}
		var value []byte
		if mode == Constant && r.IntN(2) == 0 {
			value = randomBytes(r, es)
		}
		return shape, spec, es, value
	}, goesAcross, "go across")
}

// goesAcross reports whether the top level of p, at element size es,
// passes its sub-tensors across (the executor's rule where the kernels
// make neither the cubes nor the planes below in one call).
func goesAcross(p *Plan, es int) bool {
	if len(p.levels) < 4 {
		return false
	}
	per := min(acrossBytes/max(p.levels[0].blk*es, 1), p.levels[0].outLen)
	x := executor[typedKernels[int32]]{levels: p.levels, strides: p.strides}
	return per > 1 && x.acrossPays(1, per)
}

// TestPadRowFills runs random plans of planes with pad rows of zeros of 1
// to 320 bytes at every level in use, with dst and src against guard
// pages, against the reference: fills makes those of at most
// zeroFillRowsMax bytes by the rows kernel, a batch of planes a call.
func TestPadRowFills(t *testing.T) {
	levels := supportedLevels(func(*asmKernels) bool { return true })
	r := rand.New(rand.NewPCG(135, 136))
	runRandomPlans(t, r, levels, 300, 3, func() ([]int, Spec, int, []byte) {
		es := 1 << r.IntN(4)
		w := 1 + r.IntN(80/es)
		shape := []int{1 + r.IntN(3), 1 + r.IntN(40), 1 + r.IntN(12), w}
		spec := Spec{Mode: Constant, Before: []int{0, 0, r.IntN(4), r.IntN(3)}, After: []int{0, 0, 1 + r.IntN(3), r.IntN(3)}}
		return shape, spec, es, nil
	}, func(p *Plan, es int) bool {
		if len(p.levels) < 2 {
			return false // pad rows of whole input rows: one level
		}
		pl := &p.levels[len(p.levels)-2]
		for _, run := range pl.runs {
			if fill := run.n * pl.blk * es; run.fill && fill > 64 && fill <= zeroFillRowsMax {
				return true
			}
		}
		return false
	}, "fill 65 to zeroFillRowsMax bytes of pad rows a plane")
}
