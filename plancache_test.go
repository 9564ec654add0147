package pad

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"
)

// withPlanCache turns CachedPlan's cache on with room for size plans,
// empty, for the rest of the test (the package's tests keep it off).
func withPlanCache(t testing.TB, size int) {
	setForTest(t, &planCacheSize, size)
	plans.reset()
	t.Cleanup(plans.reset)
}

func cachedLen() int {
	plans.mu.Lock()
	defer plans.mu.Unlock()
	if len(plans.byKey) != plans.order.Len() {
		panic(fmt.Sprintf("plan cache: %d keys, %d entries", len(plans.byKey), plans.order.Len()))
	}
	return len(plans.byKey)
}

func mustCachedPlan(t *testing.T, shape []int, s Spec) *Plan {
	t.Helper()
	p, err := CachedPlan(shape, s)
	if err != nil {
		t.Fatalf("CachedPlan(%v, %+v): %v", shape, s, err)
	}
	return p
}

// TestCachedPlanReuses: an equal shape and Spec, in other slices, get the
// same plan; a shape or Spec that differs in anything gets another; the
// cache off, every call compiles.
func TestCachedPlanReuses(t *testing.T) {
	withPlanCache(t, 64)
	shape := []int{2, 3, 4}
	base := Spec{Mode: Reflect, Before: []int{0, 1, 2}, After: []int{1, 0, 2}}
	p := mustCachedPlan(t, shape, base)
	again := Spec{Mode: Reflect, Before: slices.Clone(base.Before), After: slices.Clone(base.After)}
	if q := mustCachedPlan(t, slices.Clone(shape), again); q != p {
		t.Error("an equal shape and Spec in other slices got another plan")
	}
	if !slices.Equal(p.OutShape(), []int{3, 4, 8}) {
		t.Errorf("OutShape %v, want [3 4 8]", p.OutShape())
	}
	others := []struct {
		shape []int
		s     Spec
	}{
		{[]int{2, 3, 5}, base},
		{shape, Spec{Mode: Symmetric, Before: base.Before, After: base.After}},
		{shape, Spec{Mode: Reflect, Before: []int{0, 1, 1}, After: base.After}},
		{shape, Spec{Mode: Reflect, Before: base.Before, After: []int{1, 0, 1}}},
		{shape, Spec{Mode: Reflect, Before: base.Before, After: base.After, Order: PadThenCrop}},
		{shape, Spec{Mode: Constant, Before: base.Before, After: base.After}},
		{shape, Spec{Mode: Constant, Before: base.Before, After: base.After, Interior: []int{0, 0, 1}}},
	}
	seen := map[*Plan]int{p: -1}
	for i, o := range others {
		q := mustCachedPlan(t, o.shape, o.s)
		if j, ok := seen[q]; ok {
			t.Errorf("case %d (%v %+v) got the plan of case %d", i, o.shape, o.s, j)
		}
		seen[q] = i
		if want, err := refCheck(o.shape, o.s); err != nil || !slices.Equal(q.OutShape(), want) {
			t.Errorf("case %d: OutShape %v, reference %v (%v)", i, q.OutShape(), want, err)
		}
	}
	if n := cachedLen(); n != 1+len(others) {
		t.Errorf("%d plans cached, want %d", n, 1+len(others))
	}

	planCacheSize = 0
	if a, b := mustCachedPlan(t, shape, base), mustCachedPlan(t, shape, base); a == b || a == p {
		t.Error("with the cache off, CachedPlan returned a plan twice")
	}
}

// TestCachedPlanEvictsLeastRecent: a full cache drops the plan used least
// recently, and keeps no more than its size.
func TestCachedPlanEvictsLeastRecent(t *testing.T) {
	withPlanCache(t, 3)
	spec := func(n int) Spec { return Spec{Mode: Edge, Before: []int{n}, After: []int{0}} }
	shape := []int{4}
	p0, p1, p2 := mustCachedPlan(t, shape, spec(0)), mustCachedPlan(t, shape, spec(1)), mustCachedPlan(t, shape, spec(2))
	if mustCachedPlan(t, shape, spec(0)) != p0 { // 0 is now the most recent, 1 the least
		t.Fatal("plan 0 was not kept")
	}
	mustCachedPlan(t, shape, spec(3)) // drops 1
	if n := cachedLen(); n != 3 {
		t.Errorf("%d plans cached, want 3", n)
	}
	if mustCachedPlan(t, shape, spec(0)) != p0 || mustCachedPlan(t, shape, spec(2)) != p2 {
		t.Error("a recently used plan was dropped")
	}
	if mustCachedPlan(t, shape, spec(1)) == p1 {
		t.Error("the least recently used plan was kept")
	}
}

// TestCachedPlanKeepsNoErrors: an invalid shape or Spec gets NewPlan's
// error, every time, and leaves nothing in the cache.
func TestCachedPlanKeepsNoErrors(t *testing.T) {
	withPlanCache(t, 8)
	for _, c := range []struct {
		shape []int
		s     Spec
		want  error
	}{
		{[]int{2}, Spec{Mode: Reflect, Before: []int{1, 0}, After: []int{0}}, ErrInvalidSpec},
		{[]int{0}, Spec{Mode: Edge, Before: []int{1}, After: []int{0}}, ErrEmptyAxis},
		{[]int{2}, Spec{Mode: Mode(9), Before: []int{1}, After: []int{0}}, ErrInvalidSpec},
		{[]int{-1}, Spec{Mode: Constant, Before: []int{0}, After: []int{0}}, ErrInvalidSpec},
	} {
		_, want := NewPlan(c.shape, c.s)
		for range 2 {
			p, err := CachedPlan(c.shape, c.s)
			if p != nil || !errors.Is(err, c.want) || err.Error() != want.Error() {
				t.Errorf("CachedPlan(%v, %+v) = %v, %v; want NewPlan's error %v", c.shape, c.s, p, err, want)
			}
		}
	}
	if n := cachedLen(); n != 0 {
		t.Errorf("%d plans cached after errors only", n)
	}
}

// TestPlanKeyCoversSpec: two keys are equal exactly when the shapes and
// Specs are (reflect.DeepEqual: a nil slice apart from an empty one), over
// many small random ones, so that many are equal; and the key knows every
// field of Spec.
func TestPlanKeyCoversSpec(t *testing.T) {
	var fields []string
	st := reflect.TypeFor[Spec]()
	for i := range st.NumField() {
		fields = append(fields, st.Field(i).Name)
	}
	if want := []string{"Mode", "Before", "After", "Interior", "Order"}; !slices.Equal(fields, want) {
		t.Fatalf("Spec has the fields %v; planKey knows %v: give it the new ones", fields, want)
	}
	r := rand.New(rand.NewPCG(7, 11))
	ints := func(rank int) []int {
		switch r.IntN(6) {
		case 0:
			return nil
		case 1:
			return []int{}
		}
		s := make([]int, rank)
		for i := range s {
			s[i] = r.IntN(4) - 1
			if r.IntN(50) == 0 {
				s[i] = int(r.Int32()) // a value over several varint bytes
			}
		}
		return s
	}
	keyOf := map[string]string{} // canonical text (%#v keeps nil apart from empty) -> key
	canonOf := map[string]string{}
	equal := 0
	for range 50000 {
		rank := r.IntN(3)
		shape := ints(rank)
		s := Spec{Mode: Mode(r.IntN(6)), Before: ints(rank), After: ints(rank), Interior: ints(rank), Order: Order(r.IntN(3))}
		canon := fmt.Sprintf("%#v %#v", shape, s)
		key := string(planKey(nil, shape, s))
		if k, ok := keyOf[canon]; ok {
			equal++
			if k != key {
				t.Fatalf("%s has two keys: %x and %x", canon, k, key)
			}
			continue
		}
		if c, ok := canonOf[key]; ok {
			t.Fatalf("%s and %s have the same key %x", c, canon, key)
		}
		keyOf[canon], canonOf[key] = key, canon
	}
	if equal < 1000 {
		t.Errorf("only %d equal pairs drawn: the test checks too little", equal)
	}
	// The package setting that changes what NewPlan compiles.
	k0 := string(planKey(nil, []int{2}, Spec{Before: []int{1}, After: []int{1}}))
	withValue(&gatherMaxOut, 0, func() {
		if k0 == string(planKey(nil, []int{2}, Spec{Before: []int{1}, After: []int{1}})) {
			t.Error("gatherMaxOut does not change the key")
		}
	})
}

// TestRandomCachedPad: Pad and Into with plans from a small cache (so that
// plans are reused, dropped and compiled again) give the reference's
// output, or its error, bit for bit, on random valid and broken cases,
// each padded three times.
func TestRandomCachedPad(t *testing.T) {
	withPlanCache(t, 8)
	r := rand.New(rand.NewPCG(5, 3))
	var recent []rtCase // cases drawn again, to hit the cache
	n := rtCaseCount(3000, 600)
	checked, failed, hits := 0, 0, 0
	for i := range n {
		var c rtCase
		if len(recent) > 0 && r.IntN(2) == 0 {
			c = recent[r.IntN(len(recent))].clone()
		} else {
			c = rtGenValid(r)
			if r.IntN(5) == 0 {
				rtMutateSpec(r, &c)
			}
			recent = append(recent, c.clone())
			if len(recent) > 12 {
				recent = recent[1:]
			}
		}
		inLen := rtSmallProduct(c.shape, 1<<16)
		if inLen < 0 {
			continue
		}
		src := make([]uint32, inLen)
		for j := range src {
			src[j] = r.Uint32()
		}
		value := r.Uint32()
		raw := make([]byte, 4*inLen)
		for j, v := range src {
			binary.LittleEndian.PutUint32(raw[4*j:], v)
		}
		vb := binary.LittleEndian.AppendUint32(nil, value)
		var want []byte
		wantShape, wantErr := refCheck(c.shape, c.spec)
		if wantErr == nil {
			if rtSmallProduct(wantShape, 1<<18) < 0 {
				continue // a mutation made the output too large to check here
			}
			want, wantShape, wantErr = refPad(raw, 4, c.shape, c.spec, vb)
		}
		if wantErr == nil {
			checked++
			if cached(c.shape, c.spec) {
				hits++
			}
		} else {
			failed++
		}
		for try := range 3 {
			out, shape, err := Pad(src, c.shape, c.spec, value)
			if wantErr != nil || err != nil {
				if !errors.Is(err, refSentinel(wantErr)) || wantErr == nil {
					t.Fatalf("case %d (%v), call %d: Pad error %v, reference %v", i, c, try, err, wantErr)
				}
				continue
			}
			got := make([]byte, 4*len(out))
			for j, v := range out {
				binary.LittleEndian.PutUint32(got[4*j:], v)
			}
			if !slices.Equal(shape, wantShape) || !bytes.Equal(got, want) {
				t.Fatalf("case %d (%v), call %d: Pad gave shape %v, want %v, or other bytes", i, c, try, shape, wantShape)
			}
			dst := make([]uint32, len(out))
			if err := Into(dst, src, c.shape, c.spec, value); err != nil || !slices.Equal(dst, out) {
				t.Fatalf("case %d (%v), call %d: Into: %v, or an output other than Pad's", i, c, try, err)
			}
		}
	}
	if cachedLen() > 8 {
		t.Errorf("%d plans cached, more than the cache's 8", cachedLen())
	}
	t.Logf("%d outputs checked (%d from a cached plan), %d errors", checked, hits, failed)
	if checked < n/2 || hits < checked/4 || failed < n/20 {
		t.Errorf("%d outputs checked (%d from a cached plan), %d errors of %d cases: the test checks too little", checked, hits, failed, n)
	}
}

// cached reports whether the cache has a plan for shape and s, without
// making it the most recent.
func cached(shape []int, s Spec) bool {
	plans.mu.Lock()
	defer plans.mu.Unlock()
	_, ok := plans.byKey[string(planKey(nil, shape, s))]
	return ok
}

// TestCachedPlanConcurrent: goroutines padding a few shapes at once, with
// a cache smaller than the shapes (under -race in CI), each get the
// reference's output.
func TestCachedPlanConcurrent(t *testing.T) {
	withPlanCache(t, 3)
	r := rand.New(rand.NewPCG(1, 2))
	type job struct {
		c    rtCase
		src  []uint16
		want []uint16
	}
	var jobs []job
	for len(jobs) < 5 {
		c := rtGenValid(r)
		inLen := rtSmallProduct(c.shape, 1<<12)
		if inLen < 0 {
			continue
		}
		src := make([]uint16, inLen)
		raw := make([]byte, 2*inLen)
		for j := range src {
			src[j] = uint16(r.Uint32())
			binary.LittleEndian.PutUint16(raw[2*j:], src[j])
		}
		want, _, err := refPad(raw, 2, c.shape, c.spec, []byte{7, 0})
		if err != nil {
			t.Fatal(err)
		}
		w := make([]uint16, len(want)/2)
		for j := range w {
			w[j] = binary.LittleEndian.Uint16(want[2*j:])
		}
		jobs = append(jobs, job{c, src, w})
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				j := jobs[(g+i)%len(jobs)]
				out, _, err := Pad(j.src, j.c.shape, j.c.spec, 7)
				if err == nil && !slices.Equal(out, j.want) {
					err = fmt.Errorf("%v: output differs from the reference", j.c)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestCachedPlanHitAllocatesNothing: a plan found in the cache costs no
// allocation, for shapes of up to rank 8.
func TestCachedPlanHitAllocatesNothing(t *testing.T) {
	withPlanCache(t, 8)
	shape := []int{1, 2, 3, 4, 5, 6, 7, 8}
	z := make([]int, 8)
	s := Spec{Mode: Edge, Before: []int{0, 1, 0, 1, 0, 1, 0, 1}, After: z, Interior: nil}
	mustCachedPlan(t, shape, s)
	if a := testing.AllocsPerRun(100, func() { mustCachedPlan(t, shape, s) }); a != 0 {
		t.Errorf("a cache hit allocated %v times", a)
	}
}
