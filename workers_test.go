package pad

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
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
	// AMD's rule, parallelMinTraffic, is TestWorkersTraffic's.
	setForTest(t, &parallelMinTraffic, 0)
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

// TestWorkersTraffic: where parallelMinTraffic is set (AMD), the default
// splits only runs whose input plus output reach it.
func TestWorkersTraffic(t *testing.T) {
	setForTest(t, &parallelMinTraffic, 32<<20)
	all := runtime.GOMAXPROCS(0)
	for _, c := range []struct {
		rows, size, want int
	}{
		// Rows of 1022 elements padded to 1024: 2046 elements of input
		// and output a row, 32 MiB at 4100.05 rows of float32.
		{4100, 4, 1},
		{4101, 4, all},
		{2050, 8, 1},
		{2051, 8, all},
		{4101, 2, 1},
	} {
		p, err := NewPlan([]int{c.rows, 1022}, Spec{Mode: Edge, Before: []int{0, 1}, After: []int{0, 1}})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.workersFor(c.size); got != c.want {
			t.Errorf("%d rows of %d-byte elements (%d bytes in and out): %d workers, want %d",
				c.rows, c.size, c.rows*2046*c.size, got, c.want)
		}
	}
}

// TestWorkersConcurrentRuns: goroutines that run split plans at once share
// the helper goroutines and each plan's pooled run state; every run still
// gives the reference's bytes. Plans ask for more workers than there are
// helpers (maxHelpers) so that shares also wait for a free helper.
func TestWorkersConcurrentRuns(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	type job struct {
		p         *Plan
		es        int
		src, want []byte
	}
	var jobs []job
	cases := []struct {
		shape []int
		spec  Spec
	}{
		{[]int{6, 20, 30}, Spec{Mode: Reflect, Before: []int{1, 2, 3}, After: []int{2, 1, 3}}},
		{[]int{5, 17, 40}, Spec{Mode: Constant, Before: []int{2, -1, 1}, After: []int{0, 3, 4}, Interior: []int{1, 0, 0}}},
		{[]int{8, 9, 33}, Spec{Mode: Edge, Before: []int{1, 1, 1}, After: []int{1, 1, 1}}},
		{[]int{7, 12, 12}, Spec{Mode: Wrap, Before: []int{3, 0, 5}, After: []int{2, 4, 0}}},
		{[]int{9, 14, 14}, Spec{Mode: Symmetric, Before: []int{0, 2, 2}, After: []int{4, 2, 2}}},
		{[]int{4, 64, 56}, Spec{Mode: Constant, Before: []int{1, 1, 1}, After: []int{1, 1, 1}}},
	}
	for i, c := range cases {
		es := []int{1, 4, 8, 3}[i%4]
		src := make([]byte, prod(c.shape)*es)
		rtFillBytes(r, src)
		want, _, err := refPad(src, es, c.shape, c.spec, nil)
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		workers := []int{2, 3, maxHelpers + 5}[i%3]
		p, err := NewPlan(c.shape, c.spec, Workers(workers))
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		if p.gather != nil || p.runs != nil || p.levels[0].outLen < 2 {
			t.Fatalf("%v: the run is not split", c)
		}
		jobs = append(jobs, job{p, es, src, want})
	}
	var wg sync.WaitGroup
	failed := make(chan string, 16)
	for g := range 8 {
		wg.Go(func() {
			for i := range 3 * len(jobs) {
				j := jobs[(g+i)%len(jobs)]
				got := make([]byte, len(j.want))
				if err := j.p.RunBytes(got, j.src, j.es, nil); err != nil || !bytes.Equal(got, j.want) {
					select {
					case failed <- fmt.Sprintf("plan %v of %v, %d-byte elements: wrong output (%v)", j.p.InShape(), j.p.OutShape(), j.es, err):
					default:
					}
					return
				}
			}
		})
	}
	wg.Wait()
	close(failed)
	for f := range failed {
		t.Error(f)
	}
}
