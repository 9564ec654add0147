package pad

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// segmentSources resolves an axis program to the input element each output
// element takes (-1: the value), running its segments in order as the
// executor does: copies read the output made before them.
func segmentSources(segs []segment, L int) ([]int, error) {
	from := make([]int, L)
	made := make([]bool, L)
	for _, s := range segs {
		for t := range s.n {
			j := s.at + t
			if s.kind == segRepeat && s.step < 0 { // from the right: the blocks after it first
				j = s.at + s.n - 1 - t
			}
			if j < 0 || j >= L || made[j] {
				return nil, fmt.Errorf("segment %+v makes block %d out of range or twice", s, j)
			}
			switch s.kind {
			case segFill:
				from[j] = -1
			case segSrc:
				from[j] = s.src + t*s.step
			case segDup:
				k := s.src + t*s.step
				if k < 0 || k >= L || !made[k] {
					return nil, fmt.Errorf("segment %+v copies block %d before it is made", s, k)
				}
				from[j] = from[k]
			case segRepeat:
				k := j - s.step
				if k < 0 || k >= L || !made[k] {
					return nil, fmt.Errorf("segment %+v repeats block %d before it is made", s, k)
				}
				from[j] = from[k]
			default:
				return nil, fmt.Errorf("segment %+v: unexpected kind", s)
			}
			made[j] = true
		}
	}
	for j, ok := range made {
		if !ok {
			return nil, fmt.Errorf("block %d is never made", j)
		}
	}
	return from, nil
}

// TestPeriodicSegments checks the programs of reflect, symmetric and wrap
// axes against the extension of SEMANTICS §3 (refExt), for every pad up to
// a few periods, and that pads the input covers once take one copy each:
// the form the row kernels and the row lists take (reflect by 3 of 7
// elements used to make its first pad block a repeat from a period on,
// which sent whole planes to the element-wise path: 54x slower).
func TestPeriodicSegments(t *testing.T) {
	for _, m := range []Mode{Reflect, Symmetric, Wrap} {
		for n := 2; n <= 9; n++ {
			for before := 0; before <= 3*n; before++ {
				for after := 0; after <= 3*n; after++ {
					a := axis{inLen: n, before: before, after: after, outLen: n + before + after}
					segs := a.segments(m, PadThenCrop)
					from, err := segmentSources(segs, a.outLen)
					if err != nil {
						t.Fatalf("%v n %d pads %d %d: %v (%+v)", m, n, before, after, err, segs)
					}
					for j, got := range from {
						if want := refExt(m, n, j, before); got != want {
							t.Fatalf("%v n %d pads %d %d: block %d takes input %d, want %d (%+v)", m, n, before, after, j, got, want, segs)
						}
					}
					most := n
					if m == Reflect {
						most = n - 1
					}
					if before <= most && after <= most && len(segs) != 1+btoi(before > 0)+btoi(after > 0) {
						t.Errorf("%v n %d pads %d %d: %d segments, want the input and a copy a pad: %+v", m, n, before, after, len(segs), segs)
					}
				}
			}
		}
	}
}

// TestSmallPlanesTakeRowForms checks that planes of rows padded by pieces
// of themselves, at every pad their input covers once, get a row form and
// a row list (the shuffle kernel's whole planes), as planes of 7x7
// reflected by 3 and wrapped by 1 did not.
func TestSmallPlanesTakeRowForms(t *testing.T) {
	for _, m := range []Mode{Reflect, Symmetric, Wrap} {
		for p := 1; p <= 7; p++ {
			if m == Reflect && p == 7 {
				continue
			}
			shape := []int{512, 7, 7}
			spec := Spec{Mode: m, Before: []int{0, p, p}, After: []int{0, p, p}}
			pl, err := newExecPlan(shape, spec)
			if err != nil {
				t.Fatal(err)
			}
			n := len(pl.levels)
			if n != 3 || pl.levels[2].row.kind != rowPieces || pl.levels[1].list == nil {
				t.Errorf("%v by %d: %d levels, row kind %d, row list %v; want 3 levels, pieces, a list", m, p, n, pl.levels[n-1].row.kind, n >= 2 && pl.levels[n-2].list != nil)
			}
		}
	}
}

// TestRunsMerge checks that the plane level's row runs are as few as its
// rows allow: a wrap pad copies its rows from consecutive input rows, one
// run (one rows call for a batch of planes), not a run a row; mirrored pad
// rows, in reverse order, stay a run each.
func TestRunsMerge(t *testing.T) {
	for _, c := range []struct {
		mode Mode
		want []rowRun
	}{
		{Wrap, []rowRun{{at: 3, n: 14, src: 0, step: 1}, {at: 0, n: 3, src: 11, step: 1}, {at: 17, n: 3, src: 0, step: 1}}},
		{Edge, []rowRun{{at: 3, n: 14, src: 0, step: 1}, {at: 0, n: 3, src: 0}, {at: 17, n: 3, src: 13}}},
		{Reflect, []rowRun{{at: 3, n: 14, src: 0, step: 1}, {at: 0, n: 1, src: 3}, {at: 1, n: 1, src: 2}, {at: 2, n: 1, src: 1},
			{at: 17, n: 1, src: 12}, {at: 18, n: 1, src: 11}, {at: 19, n: 1, src: 10}}},
	} {
		spec := Spec{Mode: c.mode, Before: []int{0, 3, 3}, After: []int{0, 3, 3}}
		p, err := newExecPlan([]int{256, 14, 14}, spec)
		if err != nil {
			t.Fatal(err)
		}
		got := append([]rowRun{}, p.levels[1].runs...)
		slices.SortFunc(got, func(a, b rowRun) int { return a.at - b.at })
		want := append([]rowRun{}, c.want...)
		slices.SortFunc(want, func(a, b rowRun) int { return a.at - b.at })
		if !slices.Equal(got, want) {
			t.Errorf("%v by 3 of 14 rows: runs %+v, want %+v", c.mode, p.levels[1].runs, c.want)
		}
	}
}

// TestFillsAcrossPlanes: the pad rows of a batch of planes, filled by one
// rows call (the planes its rows: byteKernels.fills) with a value and with
// zeros (short fills only), at every level, one plan run with a value,
// then zeros, then the value again; against the reference.
func TestFillsAcrossPlanes(t *testing.T) {
	r := rand.New(rand.NewPCG(81, 82))
	levels := gridLevels()
	for _, g := range []struct {
		shape []int
		es    int
		pad   [2]int
	}{{[]int{2, 64, 7, 7}, 2, [2]int{1, 2}}, {[]int{1, 40, 5, 9}, 1, [2]int{2, 0}}, {[]int{1, 30, 3, 3}, 8, [2]int{1, 1}}, {[]int{1, 24, 6, 40}, 4, [2]int{3, 1}}, {[]int{3, 16, 4, 4}, 16, [2]int{0, 1}}} {
		spec := Spec{Mode: Constant, Before: []int{0, 0, g.pad[0], 1}, After: []int{0, 0, g.pad[1], 2}}
		p, err := newExecPlan(g.shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		in := randomBytes(r, prod(g.shape)*g.es)
		value := randomBytes(r, g.es)
		for _, lv := range levels {
			for _, v := range [][]byte{value, nil, value} {
				want, _, _ := refPad(in, g.es, g.shape, spec, v)
				dst := randomBytes(r, len(want))
				withLevel(lv, func() { err = p.RunBytes(dst, in, g.es, v) })
				if err != nil || !bytes.Equal(dst, want) {
					t.Fatalf("%v %v, %d-byte elements, value %v at %v: output differs from the reference (%v)", g.shape, spec, g.es, v, lv, err)
				}
			}
		}
	}
}

// TestFinishedRow checks which pad rows finishedRow finds made already: a
// one-row run whose input row a step-1 run before it made.
func TestFinishedRow(t *testing.T) {
	main := rowRun{at: 3, n: 30, src: 0, step: 1}
	for _, c := range []struct {
		done []rowRun
		r    rowRun
		row  int
		ok   bool
	}{
		{[]rowRun{main}, rowRun{at: 0, n: 1, src: 2}, 5, true},
		{[]rowRun{main}, rowRun{at: 33, n: 1, src: 29}, 32, true},
		{[]rowRun{{at: 0, n: 2, fill: true}, {at: 2, n: 10, src: 4, step: 1}}, rowRun{at: 12, n: 1, src: 13}, 11, true},
		{[]rowRun{main}, rowRun{at: 0, n: 2, src: 0}, 0, false},                               // two rows
		{[]rowRun{{at: 1, n: 29, src: 1, step: 1}}, rowRun{at: 0, n: 1, src: 0}, 0, false},    // cropped: not made
		{[]rowRun{{at: 0, n: 30, src: 29, step: -1}}, rowRun{at: 30, n: 1, src: 0}, 0, false}, // reversed
		{nil, rowRun{at: 0, n: 1, src: 2}, 0, false},                                          // nothing made yet
		{[]rowRun{{at: 0, n: 30, fill: true}}, rowRun{at: 30, n: 1, src: 0}, 0, false},
	} {
		row, ok := finishedRow(c.done, c.r)
		if row != c.row || ok != c.ok {
			t.Errorf("finishedRow(%+v, %+v) = %d, %v; want %d, %v", c.done, c.r, row, ok, c.row, c.ok)
		}
	}
}
