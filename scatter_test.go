package pad

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// drawScatterPlan draws a plan that scatter can make: interior padding
// that dilates the innermost padded axis (three times in four) and any
// others, pads and crops of up to 3 on every axis, at times trailing axes left whole (blocks of several
// elements), elements of 1 to 32 bytes, with or without a value.
func drawScatterPlan(r *rand.Rand) ([]int, Spec, int, []byte) {
	for {
		rank := 1 + r.IntN(4)
		shape := make([]int, rank)
		spec := Spec{Mode: Constant, Before: make([]int, rank), After: make([]int, rank), Interior: make([]int, rank)}
		whole := 0 // trailing axes without pads
		if rank > 1 && r.IntN(3) == 0 {
			whole = 1 + r.IntN(rank-1)
		}
		dilated := rank - 1 - whole // the innermost padded axis
		for i := range shape {
			shape[i] = 1 + r.IntN([]int{30, 12, 24, 24}[i])
			if i > dilated {
				shape[i] = 1 + r.IntN(6)
				continue
			}
			if i < dilated && r.IntN(2) == 0 || i == dilated && r.IntN(4) > 0 {
				spec.Interior[i] = 1 + r.IntN(3)
			}
			if r.IntN(3) > 0 {
				spec.Before[i], spec.After[i] = r.IntN(7)-3, r.IntN(7)-3
			}
			if i == dilated && spec.Interior[i] == 0 { // rows of their own, padded
				spec.Before[i] = 1 + r.IntN(3)
			}
		}
		es := []int{1, 2, 3, 4, 8, 12, 16, 32}[r.IntN(8)]
		out := es
		for i, n := range shape {
			out *= max(0, n+spec.Before[i]+spec.After[i]+(n-1)*spec.Interior[i])
		}
		interior := false
		for i, k := range spec.Interior {
			interior = interior || k > 0 && shape[i] > 1
		}
		if out == 0 || out > 128<<10 || !interior {
			continue
		}
		var value []byte
		if r.IntN(2) == 0 {
			value = randomBytes(r, es)
		}
		return shape, spec, es, value
	}
}

// TestScatter runs random plans of interior padding (drawScatterPlan) by
// scatter and by the executor at every level, against the reference.
// (TestInteriorScatterGuarded runs them against guard pages.)
func TestScatter(t *testing.T) {
	r := rand.New(rand.NewPCG(181, 182))
	cases := 300
	if testing.Short() {
		cases = 60
	}
	rows := 0 // plans whose innermost level dilates
	for range cases {
		shape, spec, es, value := drawScatterPlan(r)
		p, err := newExecPlan(shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		in := randomBytes(r, es*prod(shape))
		want, _, err := refPad(in, es, shape, spec, value)
		if err != nil {
			t.Fatal(err)
		}
		if dilates(&p.levels[len(p.levels)-1]) {
			rows++
		}
		for _, l := range gridLevels() {
			for _, policy := range []int{scatterAlways, scatterNever} {
				withLevel(l, func() {
					withValue(&scatterPolicy, policy, func() {
						dst := bytes.Repeat([]byte{0xa5}, len(want))
						if err := p.RunBytes(dst, in, es, value); err != nil {
							t.Fatal(err)
						}
						if !bytes.Equal(dst, want) {
							t.Fatalf("%v %v size %d, level %v, policy %d: %s", shape, spec, es, l, policy, gridFirstDiff(dst, want))
						}
					})
				})
			}
		}
	}
	if rows < cases/2 || cases-rows < cases/20 {
		t.Fatalf("%d of %d plans dilate their innermost level, want half or more, and a twentieth or more that do not", rows, cases)
	}
}

// TestScatterRule checks which runs scatter takes (scatters): every run
// of interior padding that dilates its innermost level at the levels
// without a kernel for its table, and where the level has one, the runs
// it does not take (a plane cropped on a dilated axis), not the others;
// where only outer axes dilate, narrow rows at the levels without such a
// kernel, never wide ones; never on two workers.
func TestScatterRule(t *testing.T) {
	cases := []struct {
		shape []int
		spec  Spec
		want  func(tab *sizeTables) bool
	}{
		{[]int{1, 14, 42, 42}, Spec{Before: []int{0, 1, -2, 2}, After: []int{0, -2, 0, 1}, Interior: []int{0, 0, 1, 1}},
			func(*sizeTables) bool { return true }},
		{[]int{1, 8, 9, 9}, Spec{Before: []int{0, 0, 2, 2}, After: []int{0, 0, 2, 2}, Interior: []int{0, 0, 1, 1}},
			func(tab *sizeTables) bool { return tab.dense == nil || !expandTakes(tab.dense) }},
		{[]int{1, 8, 28, 28}, Spec{Before: []int{0, 0, 0, 0}, After: []int{0, 0, 0, 0}, Interior: []int{0, 0, 1, 1}},
			func(tab *sizeTables) bool { return tab.dense == nil || !expandTakes(tab.dense) }},
		{[]int{1, 32, 14, 14}, Spec{Before: []int{0, 0, 1, 1}, After: []int{0, 0, 1, 1}, Interior: []int{0, 0, 1, 0}},
			func(*sizeTables) bool { return !interiorKernelsInUse() }},
		{[]int{16, 4096}, Spec{Before: []int{0, 0}, After: []int{0, 1}, Interior: []int{1, 0}},
			func(*sizeTables) bool { return false }},
	}
	for i, c := range cases {
		p, err := newExecPlan(c.shape, c.spec)
		if err != nil {
			t.Fatal(err)
		}
		es := 1
		p.tablesFor(es)
		tab := p.tablesFor(es) // the second run's, with the tables of interior padding
		if i == 0 && tab.dense != nil {
			t.Errorf("%v %v: a table of interior padding, though cropped", c.shape, c.spec)
		}
		dst, src := make([]byte, es*prod(p.OutShape())), make([]byte, es*prod(c.shape))
		for _, l := range gridLevels() {
			withLevel(l, func() {
				k := newByteKernels(dst, src, es)
				k.tab, k.dense = tab, true
				if got, want := k.scatters(p.levels, 1), c.want(tab); got != want {
					t.Errorf("%v %v, level %v: scatters %v, want %v", c.shape, c.spec, l, got, want)
				}
				if k.scatters(p.levels, 2) {
					t.Errorf("%v %v, level %v: scatters on two workers", c.shape, c.spec, l)
				}
			})
		}
	}
}
