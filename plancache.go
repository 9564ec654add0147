package pad

import (
	"container/list"
	"encoding/binary"
	"sync"
)

// CachedPlan returns a Plan for tensors of the given shape padded as s
// says, as NewPlan (without options) compiles it, reusing the plan it
// returned for an equal shape and Spec if that is among the last 64 it
// returned. Plans are immutable and safe for concurrent use, so a shared
// plan behaves as a new one; it also keeps the kernels' tables its
// earlier runs built. Pad, Into and the front-ends (onnx, openvino,
// ngraph) take their plans from it, so that padding one shape again costs
// a lookup instead of a compile (on a Zen 4, suite case e: 12.6 -> 5.0 us
// a call, BenchmarkOneShot; Pad of the ONNX spec example: 1.1 us -> 120
// ns). Errors are those of NewPlan, and an invalid Spec is never kept.
func CachedPlan(shape []int, s Spec) (*Plan, error) {
	if planCacheSize <= 0 {
		return NewPlan(shape, s)
	}
	var buf [192]byte
	key := planKey(buf[:0], shape, s)
	if p := plans.get(key); p != nil {
		return p, nil
	}
	p, err := NewPlan(shape, s)
	if err != nil {
		return nil, err
	}
	return plans.put(key, p), nil
}

// planCacheSize is how many plans CachedPlan keeps. The package's own
// tests set it to 0 (kernel_test.go), so that a plan they compile under
// one test hook is never run under another; the cache's tests set it back.
var planCacheSize = 64

var plans = planCache{byKey: map[string]*list.Element{}}

// planCache keeps the plans CachedPlan returned, the most recently used
// first.
type planCache struct {
	mu    sync.Mutex
	byKey map[string]*list.Element // values: *cachedPlan
	order list.List
}

type cachedPlan struct {
	key  string
	plan *Plan
}

func (c *planCache) get(key []byte) *Plan {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.touch(key)
}

// put keeps p under key and returns it, or returns the plan another
// goroutine put there first.
func (c *planCache) put(key []byte, p *Plan) *Plan {
	c.mu.Lock()
	defer c.mu.Unlock()
	if q := c.touch(key); q != nil {
		return q
	}
	k := string(key)
	c.byKey[k] = c.order.PushFront(&cachedPlan{k, p})
	for c.order.Len() > planCacheSize {
		last := c.order.Back()
		delete(c.byKey, last.Value.(*cachedPlan).key)
		c.order.Remove(last)
	}
	return p
}

// touch returns the plan kept under key, now the most recently used, or
// nil; c.mu is held.
func (c *planCache) touch(key []byte) *Plan {
	e, ok := c.byKey[string(key)] // no allocation: the compiler looks up by the bytes
	if !ok {
		return nil
	}
	c.order.MoveToFront(e)
	return e.Value.(*cachedPlan).plan
}

// reset empties the cache.
func (c *planCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.byKey)
	c.order.Init()
}

// planKey appends to b a key that equals another only for an equal shape
// and Spec: every field of each, slices with their lengths (a nil Interior
// apart from an empty one), and gatherMaxOut, the one package setting that
// changes what NewPlan compiles.
func planKey(b []byte, shape []int, s Spec) []byte {
	b = append(b, byte(s.Mode), byte(s.Order))
	b = binary.AppendVarint(b, int64(gatherMaxOut))
	for _, ints := range [...][]int{shape, s.Before, s.After, s.Interior} {
		if ints == nil {
			b = append(b, 0)
			continue
		}
		b = binary.AppendUvarint(b, uint64(len(ints))+1)
		for _, v := range ints {
			b = binary.AppendVarint(b, int64(v))
		}
	}
	return b
}
