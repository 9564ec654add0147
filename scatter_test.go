package pad

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// drawScatterPlan draws a plan that scatter can make: interior padding
// that dilates the innermost axis and any others, pads and crops of up to
// 3 on every axis, at times trailing axes left whole (blocks of several
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
			if i == dilated || r.IntN(2) == 0 {
				spec.Interior[i] = 1 + r.IntN(3)
			}
			if r.IntN(3) > 0 {
				spec.Before[i], spec.After[i] = r.IntN(7)-3, r.IntN(7)-3
			}
		}
		es := []int{1, 2, 3, 4, 8, 12, 16, 32}[r.IntN(8)]
		out := es
		for i, n := range shape {
			out *= max(0, n+spec.Before[i]+spec.After[i]+(n-1)*spec.Interior[i])
		}
		if out == 0 || out > 128<<10 || shape[dilated] < 2 {
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
	scattered := 0
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
			scattered++
		}
		for _, l := range gridLevels() {
			for _, policy := range []int{scatterAlways, scatterNever} {
				withLevel(l, func() {
					withValue(&scatterPolicy, policy, func() {
						dst := randomBytes(r, len(want))
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
	if scattered < cases*9/10 {
		t.Fatalf("only %d of %d plans dilate their innermost level", scattered, cases)
	}
}

// TestScatterRule checks which runs scatter takes (scatters): every run of
// interior padding that dilates its innermost level at the levels without
// a kernel for its table, and where the level has one, the runs it does
// not take (a plane cropped on a dilated axis), not the others.
func TestScatterRule(t *testing.T) {
	cases := []struct {
		shape    []int
		spec     Spec
		hasTable bool // a table of interior padding of its planes (dense)
	}{
		{[]int{1, 14, 42, 42}, Spec{Mode: Constant, Before: []int{0, 1, -2, 2}, After: []int{0, -2, 0, 1}, Interior: []int{0, 0, 1, 1}}, false},
		{[]int{1, 8, 9, 9}, Spec{Mode: Constant, Before: []int{0, 0, 2, 2}, After: []int{0, 0, 2, 2}, Interior: []int{0, 0, 1, 1}}, true},
		{[]int{1, 8, 28, 28}, Spec{Mode: Constant, Before: []int{0, 0, 0, 0}, After: []int{0, 0, 0, 0}, Interior: []int{0, 0, 1, 1}}, true},
	}
	for _, c := range cases {
		p, err := newExecPlan(c.shape, c.spec)
		if err != nil {
			t.Fatal(err)
		}
		es := 1
		p.tablesFor(es)
		tab := p.tablesFor(es) // the second run's, with the tables of interior padding
		if (tab.dense != nil) != c.hasTable {
			t.Errorf("%v %v: table %v, want %v", c.shape, c.spec, tab.dense != nil, c.hasTable)
		}
		dst, src := make([]byte, es*prod(p.OutShape())), make([]byte, es*prod(c.shape))
		for _, l := range gridLevels() {
			withLevel(l, func() {
				k := newByteKernels(dst, src, es)
				k.tab, k.dense = tab, true
				want := !c.hasTable || !expandTakes(tab.dense)
				if got := k.scatters(p.levels, 1); got != want {
					t.Errorf("%v %v, level %v: scatters %v, want %v", c.shape, c.spec, l, got, want)
				}
				if k.scatters(p.levels, 2) {
					t.Errorf("%v %v, level %v: scatters on two workers", c.shape, c.spec, l)
				}
			})
		}
	}
}
