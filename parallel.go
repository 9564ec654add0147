package pad

import (
	"sync"
	"sync/atomic"
)

// A run split over goroutines (Workers, parallelMinBytes) hands its shares
// to helper goroutines that the package starts when first needed and
// keeps, and takes its shared state from a pool of the plan's: a goroutine
// started per share, with its closure and the state it shares, would
// allocate at every run, and Plan runs allocate nothing.

// share is a run's work split into shares: runShare(w) makes share w.
type share interface{ runShare(w int) }

type shareTask struct {
	s share
	w int
}

// helpers are the goroutines that make shares; they wait on work.
var helpers struct {
	sync.Mutex
	n    atomic.Int32
	work chan shareTask
}

func init() { helpers.work = make(chan shareTask, 64) }

// maxHelpers bounds the helper goroutines; shares beyond them wait for
// one that is free.
const maxHelpers = 256

// hire makes sure that n helpers (at most maxHelpers) wait for shares.
func hire(n int) {
	n = min(n, maxHelpers)
	if int(helpers.n.Load()) >= n {
		return
	}
	helpers.Lock()
	defer helpers.Unlock()
	for int(helpers.n.Load()) < n {
		go helper()
		helpers.n.Add(1)
	}
}

func helper() {
	for t := range helpers.work {
		t.s.runShare(t.w)
	}
}

// parallelRun is the state the shares of one run read.
type parallelRun[K kernels] struct {
	x            executor[K]
	strides      []int // x.strides' storage, kept for the next run
	top, workers int
	done         sync.WaitGroup
}

// runShare makes share w of the fills and input reads of the top level.
func (r *parallelRun[K]) runShare(w int) {
	r.x.runBlocks(w*r.top/r.workers, (w+1)*r.top/r.workers)
	r.x.k.flush()
	r.done.Done()
}

// runParallel splits the top level's blocks into one range per goroutine,
// the calling one included. Fills and reads of the input never read dst,
// so the ranges run at once; then the segments that copy finished output
// run in order. pool (a plan's) keeps the run's state between runs; nil
// allocates it.
func runParallel[K kernels](k K, levels []level, strides []int, workers int, pool *sync.Pool) {
	var r *parallelRun[K]
	if pool != nil {
		r, _ = pool.Get().(*parallelRun[K]) // nil if the pool held another run's type
	}
	if r == nil {
		r = new(parallelRun[K])
	}
	// The strides are copied: the caller's slice need not escape.
	r.strides = append(r.strides[:0], strides...)
	r.x = executor[K]{k: k, levels: levels, strides: r.strides}
	r.top, r.workers = levels[0].outLen, workers
	hire(workers - 1)
	r.done.Add(workers - 1)
	for w := 1; w < workers; w++ {
		helpers.work <- shareTask{r, w}
	}
	r.x.runBlocks(0, r.top/workers)
	r.done.Wait()
	r.x.runCopies()
	k.flush()
	r.x = executor[K]{} // keep no buffer of the caller's
	if pool != nil {
		pool.Put(r)
	}
}
