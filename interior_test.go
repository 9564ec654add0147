//go:build unix && !purego && !noasm

package pad

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestInteriorPadding runs random plans of interior padding (constant
// padding that dilates one to all axes, with pads and some crops, elements
// of 1 to 16 bytes, with and without a value) at every level, Go's
// included, against guard pages and the reference. Uncropped ones have a
// table of their planes (denseExpandOf) that the levels with an expand
// kernel make them by (planesDense, expandGo where the kernel declines a
// call); the others, and the Go level's, dilate their rows a word an
// element (byteKernels.dilate).
func TestInteriorPadding(t *testing.T) {
	// The half codes of the tables too, which the levels without VBMI2
	// take (rowsExpandHalves), though the plans build their tables at the
	// level in use.
	defer func(was bool) { buildHalves = was }(buildHalves)
	buildHalves = true
	r := rand.New(rand.NewPCG(171, 172))
	sizes := []int{1, 2, 3, 4, 8, 16}
	byRows := 0
	runRandomPlans(t, r, gridLevels(), 1000, 3, func() ([]int, Spec, int, []byte) {
	draw:
		rank := 1 + r.IntN(4)
		shape := make([]int, rank)
		spec := Spec{Mode: Constant, Before: make([]int, rank), After: make([]int, rank), Interior: make([]int, rank)}
		for i := range shape {
			shape[i] = 1 + r.IntN([]int{40, 12, 30, 30}[i])
			if r.IntN(2) == 0 || i == rank-1 {
				spec.Interior[i] = r.IntN(4)
			}
			if r.IntN(2) == 0 {
				spec.Before[i], spec.After[i] = r.IntN(3), r.IntN(3)
			}
			if r.IntN(12) == 0 && shape[i] > 2 {
				spec.Before[i] = -1
			}
		}
		es := sizes[r.IntN(len(sizes))]
		out := es
		for i, n := range shape {
			out *= n + spec.Before[i] + spec.After[i] + (n-1)*spec.Interior[i]
		}
		if out > 256<<10 {
			goto draw
		}
		var value []byte
		if r.IntN(2) == 0 {
			value = randomBytes(r, es)
		}
		return shape, spec, es, value
	}, func(p *Plan, es int) bool {
		tab := p.tablesFor(es)
		if tab.denseRows != nil {
			byRows++
		}
		return tab.dense != nil || tab.denseRows != nil
	}, "have a table of interior padding")
	if min := 20; byRows < min && !testing.Short() {
		t.Fatalf("only %d plans with a table of their rows (denseRows), want %d", byRows, min)
	}
	t.Logf("%d of them of their rows", byRows)

	// Tables of a part of the plan's planes, which take them in batches
	// (expandTable.most), and of a whole output past the planes' bound.
	a := newGuardArena(t, 2, 1<<20)
	for _, c := range []struct {
		shape []int
		es    int
		check func(tab *sizeTables) bool
	}{
		{[]int{60, 27, 27}, 1, func(tab *sizeTables) bool { return tab.dense != nil && tab.dense.most > 0 && tab.dense.most < 60 }},
		{[]int{54, 54, 13}, 1, func(tab *sizeTables) bool { return tab.dense != nil && tab.dense.plane > expandMaxEntries*64 }},
		{[]int{3, 70, 150}, 4, func(tab *sizeTables) bool { return tab.dense == nil && tab.denseRows != nil }},
	} {
		interior := make([]int, len(c.shape))
		interior[len(interior)-2], interior[len(interior)-1] = 1, 1
		if c.shape[2] == 13 {
			interior = []int{1, 1, 0}
		}
		spec := Spec{Mode: Constant, Before: make([]int, len(c.shape)), After: make([]int, len(c.shape)), Interior: interior}
		p, err := newExecPlan(c.shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		what := fmt.Sprintf("%v %v size %d", c.shape, spec, c.es)
		if !c.check(p.tablesFor(c.es)) {
			t.Errorf("%s: not the table it is here for", what)
		}
		in := randomBytes(r, c.es*prod(c.shape))
		want, _, err := refPad(in, c.es, c.shape, spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		a.runPlanAtLevels(t, r, gridLevels(), p, in, c.es, nil, want, what)
	}
}

// TestPastThePeriod runs random plans of reflect, symmetric and wrap
// padding past the period of their rows (as numpy.pad extends them) at
// every level against guard pages and the reference: rows of a general
// form, which the shuffle kernels make by their own table where a row fits
// them (generalRowTable) and the executor's segments otherwise.
func TestPastThePeriod(t *testing.T) {
	r := rand.New(rand.NewPCG(173, 174))
	runRandomPlans(t, r, gridLevels(), 600, 4, func() ([]int, Spec, int, []byte) {
	draw:
		es := 1 << r.IntN(4)
		w := 1 + r.IntN(12)
		shape := []int{1 + r.IntN(60), 1 + r.IntN(10), w}
		spec := Spec{Mode: []Mode{Reflect, Symmetric, Wrap}[r.IntN(3)], Before: make([]int, 3), After: make([]int, 3)}
		for i, n := range shape[1:] {
			spec.Before[i+1], spec.After[i+1] = r.IntN(3*n+1), r.IntN(3*n+1)
			if r.IntN(8) == 0 && n > 2 {
				spec.Before[i+1] = -1
			}
		}
		out := es
		for i, n := range shape {
			out *= n + spec.Before[i] + spec.After[i]
		}
		if out > 256<<10 {
			goto draw
		}
		return shape, spec, es, nil
	}, func(p *Plan, es int) bool { return p.tablesFor(es).generalRows != nil }, "have a shuffle table of rows of a general form")
}

// TestInteriorShortOutputs runs outputs of interior padding of a few bytes
// whose table takes whole words (2-byte elements dilated by 1 and the
// like) from every phase of dst to a cache line: the word expand kernel
// makes whole words only, so outputs of a part of one take the byte kernel
// or expandGo (a fuzzed [1] dilated by 1, 2-byte elements at a line, took
// the word kernel for 2 bytes and wrote none).
func TestInteriorShortOutputs(t *testing.T) {
	r := rand.New(rand.NewPCG(175, 176))
	for _, shape := range [][]int{{1}, {3}, {5}, {2, 3}, {1, 7}} {
		interior := make([]int, len(shape))
		interior[len(shape)-1] = 1
		spec := Spec{Mode: Constant, Before: make([]int, len(shape)), After: make([]int, len(shape)), Interior: interior}
		p, err := newExecPlan(shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, es := range []int{1, 2, 4} {
			in := randomBytes(r, es*prod(shape))
			value := randomBytes(r, es)
			want, _, err := refPad(in, es, shape, spec, value)
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, len(want)+128)
			base := (64 - addrPhase(buf)) % 64
			for _, l := range gridLevels() {
				for off := range 64 {
					dst := buf[base+off:][:len(want)]
					withLevel(l, func() {
						if err := p.RunBytes(dst, in, es, value); err != nil {
							t.Fatal(err)
						}
					})
					if !bytes.Equal(dst, want) {
						t.Fatalf("%v %v size %d, level %v, dst %d bytes past a line: %s", shape, spec, es, l, off, gridFirstDiff(dst, want))
					}
				}
			}
		}
	}
}

// TestInteriorScatterGuarded runs TestScatter's random plans at every
// level against guard pages and the reference, by scatter and by the
// executor: scatter's rows are word loads and stores by unsafe pointers
// (dilateWords, dilatePairs).
func TestInteriorScatterGuarded(t *testing.T) {
	r := rand.New(rand.NewPCG(183, 184))
	for _, policy := range []int{scatterAlways, scatterNever} {
		withValue(&scatterPolicy, policy, func() {
			runRandomPlans(t, r, gridLevels(), 300, 2, func() ([]int, Spec, int, []byte) {
				return drawScatterPlan(r)
			}, func(p *Plan, es int) bool { return dilates(&p.levels[len(p.levels)-1]) }, fmt.Sprintf("dilate their rows (policy %d)", policy))
		})
	}
}

// TestInteriorStreamed runs TestScatter's random plans at every level as
// the largest outputs run (withStreaming: streaming stores, no scatter),
// against guard pages and the reference: their tables of interior padding
// take them there too (denseTakes).
func TestInteriorStreamed(t *testing.T) {
	r := rand.New(rand.NewPCG(185, 186))
	withStreaming(func() {
		runRandomPlans(t, r, gridLevels(), 300, 4, func() ([]int, Spec, int, []byte) {
			return drawScatterPlan(r)
		}, func(p *Plan, es int) bool {
			tab := p.tablesFor(es)
			return tab.dense != nil || tab.denseRows != nil
		}, "have a table of interior padding")
	})
}
