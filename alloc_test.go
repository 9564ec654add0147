package pad

import (
	"bytes"
	"testing"
)

// TestRunsAllocateNothing: running a compiled plan allocates nothing, on
// every path (the race detector's instrumentation allocates, so not there).
func TestRunsAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocations are not measured under -race")
	}
	for _, s := range []Spec{
		{Mode: Reflect, Before: []int{1, 2}, After: []int{2, 1}},
		{Mode: Constant, Before: []int{0, 2}, After: []int{0, 0}},
		{Mode: Edge, Before: []int{1, 3}, After: []int{0, 1}},
		{Mode: Wrap, Before: []int{-1, 5}, After: []int{2, 2}},
	} {
		// Both ways of running a small plan: the gather table, the executor.
		p, err := NewPlan([]int{3, 4}, s)
		if err != nil {
			t.Fatal(err)
		}
		pe, _ := newExecPlan([]int{3, 4}, s)
		if p.gather == nil || pe.gather != nil {
			t.Fatalf("%v: gather tables %v and %v", s, p.gather, pe.gather)
		}
		out := prod(p.OutShape())
		src, dst := make([]float32, 12), make([]float32, out)
		b, sb, value := make([]byte, 4*out), make([]byte, 48), []byte{1, 2, 3, 4}
		strides := []int{1, 3}
		strs, dstStrs := make([]string, 12), make([]string, out)
		for name, run := range map[string]func(){
			"Run":                 func() { Run(p, dst, src, 1.5) },
			"RunBytes":            func() { p.RunBytes(b, sb, 4, value) },
			"RunStrided":          func() { RunStrided(p, dst, src, strides, 1.5) },
			"Run string":          func() { Run(p, dstStrs, strs, "x") },
			"RunPacked":           func() { p.RunPacked(b[:(out+1)/2], sb[:6], 4, 7) },
			"Run (executor)":      func() { Run(pe, dst, src, 1.5) },
			"RunBytes (executor)": func() { pe.RunBytes(b, sb, 4, value) },
		} {
			if a := testing.AllocsPerRun(50, run); a != 0 {
				t.Errorf("%v: %s allocates %v times per run", s, name, a)
			}
		}
	}
	// The run table (a few long runs).
	p, err := NewPlan([]int{2, 40}, Spec{Mode: Edge, Before: []int{0, 3}, After: []int{0, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if p.runs == nil {
		t.Fatal("no run table")
	}
	src, dst := make([]float32, 80), make([]float32, 90)
	b, sb, value := make([]byte, 4*90), make([]byte, 4*80), []byte{1, 2, 3, 4}
	strs, dstStrs := make([]string, 80), make([]string, 90)
	for name, run := range map[string]func(){
		"Run":        func() { Run(p, dst, src, 1.5) },
		"RunBytes":   func() { p.RunBytes(b, sb, 4, value) },
		"Run string": func() { Run(p, dstStrs, strs, "x") },
	} {
		if a := testing.AllocsPerRun(50, run); a != 0 {
			t.Errorf("run table: %s allocates %v times per run", name, a)
		}
	}
}

// TestTableRunsAllocateNothing: a plan builds its kernels' tables at its
// first two runs with an element size (the periodic ones at the second:
// tables.go); every later run allocates nothing.
func TestTableRunsAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocations are not measured under -race")
	}
	setForTest(t, &periodicAtFirstRun, false) // as outside the tests
	dilate := Spec{Mode: Constant, Before: []int{0, 0, 1, 1}, After: []int{0, 0, 1, 1}, Interior: []int{0, 0, 1, 1}}
	cropped := Spec{Mode: Constant, Before: []int{0, 0, -1, 1}, After: []int{0, 0, 1, -1}, Interior: []int{0, 0, 1, 1}}
	for _, c := range []struct {
		shape []int
		spec  Spec
		off   int // of dst from an allocation's start
	}{
		{[]int{2, 3, 14, 14}, Spec{Mode: Constant, Before: []int{0, 0, 1, 1}, After: []int{0, 0, 1, 1}}, 0}, // expand, wide
		{[]int{2, 3, 14, 14}, Spec{Mode: Reflect, Before: []int{0, 0, 2, 2}, After: []int{0, 0, 2, 2}}, 0},  // shuffle, lines
		{[]int{2, 30, 40, 19}, Spec{Mode: Wrap, Before: []int{0, 0, 1, 1}, After: []int{0, 0, 1, 2}}, 0},    // row groups and lists
		{[]int{2, 3, 40, 40}, dilate, 0},  // interior padding by planes (denseExpandOf) in batches
		{[]int{2, 3, 40, 40}, dilate, 20}, // ... off a line, by shifted tables
		{[]int{2, 3, 40, 40}, dilate, 1},  // ... and off their elements
		{[]int{2, 3, 40, 40}, cropped, 0}, // ... cropped: scatter (scatter.go), or rows by their table
	} {
		shape, s := c.shape, c.spec
		p, err := NewPlan(shape, s, Workers(1))
		if err != nil {
			t.Fatal(err)
		}
		in, out := prod(shape), prod(p.OutShape())
		for _, es := range kernelSizes {
			src, dst := make([]byte, in*es), make([]byte, out*es+c.off)[c.off:]
			value := bytes.Repeat([]byte{1, 2, 3, 4}, 4)[:es] // a pattern that a shift rotates
			p.RunBytes(dst, src, es, value)                   // the first run: AllocsPerRun's own is the second
			if a := testing.AllocsPerRun(20, func() { p.RunBytes(dst, src, es, value) }); a != 0 {
				t.Errorf("%v, %d-byte elements, dst at %d: a run allocates %v times", s, es, c.off, a)
			}
			if tab := p.tables[sizeIndex(es)].Load(); tab == nil || !tab.periodic {
				t.Errorf("%v, %d-byte elements: not every table after the runs", s, es)
			}
		}
	}
}

// TestParallelRunsAllocateNothing: runs split over goroutines take their
// helpers and shared state from what earlier runs left, on every path.
func TestParallelRunsAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocations are not measured under -race")
	}
	shape := []int{4, 30, 40}
	s := Spec{Mode: Reflect, Before: []int{1, 2, 3}, After: []int{2, 1, 3}}
	p, err := NewPlan(shape, s, Workers(3))
	if err != nil {
		t.Fatal(err)
	}
	in, out := prod(shape), prod(p.OutShape())
	src, dst := make([]float32, in), make([]float32, out)
	b, sb := make([]byte, 8*out), make([]byte, 8*in)
	strs, dstStrs := make([]string, in), make([]string, out)
	strides := []int{1, 4, 120} // a transposed view
	for name, run := range map[string]func(){
		"Run":        func() { Run(p, dst, src, 0) },
		"RunBytes":   func() { p.RunBytes(b, sb, 8, nil) },
		"RunStrided": func() { RunStrided(p, dst, src, strides, 0) },
		"Run string": func() { Run(p, dstStrs, strs, "x") },
	} {
		if a := testing.AllocsPerRun(50, run); a != 0 {
			t.Errorf("%s with 3 workers allocates %v times per run", name, a)
		}
	}
}
