package pad

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"testing"
)

// with returns s for the last r axes (test helper).
func (s Spec) with(r int) Spec {
	c := Spec{Mode: s.Mode, Order: s.Order, Before: s.Before[len(s.Before)-r:], After: s.After[len(s.After)-r:]}
	if s.Interior != nil {
		c.Interior = s.Interior[len(s.Interior)-r:]
	}
	return c
}

// TestWorkers: any number of workers gives the bytes one worker gives and
// the reference gives, on random valid paddings (including interior
// padding and every mode), for the byte, typed and strided paths.
func TestWorkers(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	n := rtCaseCount(3000, 300)
	for i := 0; i < n; i++ {
		c := rtGenValid(r)
		es := []int{1, 2, 4, 8, 16, 3}[r.IntN(6)]
		src := make([]byte, rtSmallProduct(c.shape, 1<<20)*es)
		rtFillBytes(r, src)
		value := make([]byte, es)
		rtFillBytes(r, value)
		want, _, err := refPad(src, es, c.shape, c.spec, value)
		if err != nil {
			t.Fatalf("%v: reference rejects a valid case: %v", c, err)
		}
		for _, w := range []int{1, 2, 3, 7} {
			p, err := NewPlan(c.shape, c.spec, Workers(w))
			if err != nil {
				t.Fatalf("%v: %v", c, err)
			}
			got := make([]byte, len(want))
			if err := p.RunBytes(got, src, es, value); err != nil {
				t.Fatalf("%v workers %d: %v", c, w, err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%v, %d-byte elements, workers %d: output differs from the reference", c, es, w)
			}
		}
	}
}

// TestWorkersDefault: the default splits large outputs, and still gives
// the one-worker result.
func TestWorkersDefault(t *testing.T) {
	shape := []int{32, 300, 300} // 11.5 MB of float32 input: above parallelMinBytes
	for _, s := range []Spec{
		{Mode: Reflect, Before: []int{3, 5, 2}, After: []int{4, 1, 7}},
		{Mode: Constant, Before: []int{-2, 5, 2}, After: []int{1, 1, -7}, Interior: []int{1, 0, 2}},
		{Mode: Edge, Before: []int{1, 1, 1}, After: []int{1, 1, 1}},
	} {
		one, err := NewPlan(shape, s, Workers(1))
		if err != nil {
			t.Fatal(err)
		}
		def, _ := NewPlan(shape, s)
		if got, want := def.workersFor(4), runtime.GOMAXPROCS(0); got != want {
			t.Fatalf("default workers for a %d-element output: %d, want GOMAXPROCS = %d", def.outLen, got, want)
		}
		if small, _ := NewPlan([]int{2, 3}, s.with(2)); small.workersFor(4) != 1 {
			t.Fatalf("default workers for a small output: %d, want 1", small.workersFor(4))
		}
		src := make([]float32, 32*300*300)
		for i := range src {
			src[i] = float32(i)
		}
		a := make([]float32, prod(one.OutShape()))
		b := make([]float32, len(a))
		if err := Run(one, a, src, -1); err != nil {
			t.Fatal(err)
		}
		if err := Run(def, b, src, -1); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(asBytes(a), asBytes(b)) {
			t.Fatalf("%+v: the default workers give another result than one worker", s)
		}
	}
}
