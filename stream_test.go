package pad

import (
	"slices"
	"testing"
)

// Tests of the choices made for outputs larger than the cache: when a run
// takes the input program (pastCache, programFor) and when it streams
// (streams), and what the input program is (inputProgram). The streaming
// kernels themselves are checked with the others (TestKernels, the grid,
// the aligned kernels' tests, FuzzKernels), and whole runs with streaming
// or the input program forced (withStreaming, withInputProgram) by
// TestRandomAgainstReference, TestRandomStridedViews, the Pad grid and
// FuzzPadDispatch.

func TestStreamsThreshold(t *testing.T) {
	const mib = 1 << 20
	setForTest(t, &streamMinBytes, 3*mib/2)
	setForTest(t, &streamMinTraffic, 0)
	for _, traffic := range []int{0, 21 * mib} {
		streamMinTraffic = traffic
		for _, c := range []struct {
			in, out, workers int
			want             bool
		}{
			{0, 3*mib/2 - 1, 1, false},
			{0, 3 * mib / 2, 1, traffic == 0},
			{0, 3 * mib / 2, 0, traffic == 0},
			{0, 3*mib - 2, 2, false},
			{0, 3 * mib, 2, traffic == 0},
			{0, 0, 1, false},
			// The traffic counts input and output, of all the workers.
			{10 * mib, 11*mib - 1, 1, traffic == 0},
			{10 * mib, 11 * mib, 1, true},
			{10 * mib, 11 * mib, 2, true},
			{11 * mib, 10 * mib, 6, true},
			{11 * mib, 10 * mib, 7, false}, // 1.43 MiB of output a worker
			{20 * mib, 1 * mib, 1, false},
		} {
			if got := streams(c.in, c.out, c.workers); got != c.want {
				t.Errorf("streams(%d, %d, %d) = %v, want %v (streamMinBytes %d, streamMinTraffic %d)",
					c.in, c.out, c.workers, got, c.want, streamMinBytes, streamMinTraffic)
			}
			// Past the cache whatever the traffic: the output a worker alone decides.
			want := c.out/max(c.workers, 1) >= 3*mib/2
			if got := pastCache(c.out, c.workers); got != want {
				t.Errorf("pastCache(%d, %d) = %v, want %v", c.out, c.workers, got, want)
			}
			if c.want && !want {
				t.Errorf("streams(%d, %d, %d) but not pastCache: a streamed run would copy output back from memory", c.in, c.out, c.workers)
			}
		}
	}
}

func TestProgramFor(t *testing.T) {
	const mib = 1 << 20
	setForTest(t, &streamMinBytes, 3*mib/2)
	setForTest(t, &repMinBytes, 0)
	levels, inputs := []level{identityLevel(2)}, []level{identityLevel(3)}
	hasRep := levelHasRep()
	for _, rep := range []int{0, 4 << 10} {
		repMinBytes = rep
		// Past the cache, copies by REP MOVSB keep the output program;
		// streamed runs always take the input program.
		past := inputs
		if rep > 0 && hasRep {
			past = levels
		}
		for _, c := range []struct {
			inputs       []level
			out, workers int
			stream       bool
			want         []level
		}{
			{inputs, 3*mib/2 - 1, 1, false, levels},
			{inputs, 3 * mib / 2, 1, false, past},
			{inputs, 3 * mib / 2, 2, false, levels},
			{inputs, 3 * mib, 2, false, past},
			{inputs, 3 * mib, 1, true, inputs},
			{nil, 3 * mib, 1, true, levels}, // no input program: nothing to choose
		} {
			if got := programFor(levels, c.inputs, c.out, c.workers, c.stream); &got[0] != &c.want[0] {
				t.Errorf("repMinBytes %d, REP copies %v: programFor(out %d, workers %d, inputs %v, stream %v) = %v, want %v",
					rep, repCopiesOn(), c.out, c.workers, c.inputs != nil, c.stream, got, c.want)
			}
		}
	}
}

func TestInputForm(t *testing.T) {
	src := func(at, n, from, step int) segment { return segment{kind: segSrc, at: at, n: n, src: from, step: step} }
	for _, c := range []struct {
		name  string
		shape []int
		spec  Spec
		want  []segment // the top level's input form; nil: none
	}{
		// Suite case h: the outer planes repeat the first and last input plane.
		{"edge", []int{4, 6, 6}, Spec{Mode: Edge, Before: []int{1, 1, 1}, After: []int{1, 1, 1}},
			[]segment{src(0, 2, 0, 0), src(2, 3, 1, 1), src(5, 1, 3, 1)}},
		{"edge far", []int{2, 6, 6}, Spec{Mode: Edge, Before: []int{3, 0, 1}, After: []int{0, 0, 1}},
			[]segment{src(0, 4, 0, 0), src(4, 1, 1, 1)}},
		{"reflect", []int{4, 6, 6}, Spec{Mode: Reflect, Before: []int{2, 0, 1}, After: []int{1, 0, 1}},
			[]segment{src(0, 3, 2, -1), src(3, 3, 1, 1), src(6, 1, 2, 1)}},
		{"wrap", []int{3, 6, 6}, Spec{Mode: Wrap, Before: []int{2, 0, 1}, After: []int{2, 0, 1}},
			[]segment{src(0, 2, 1, 1), src(2, 3, 0, 1), src(5, 2, 0, 1)}},
		// Constant padding copies no finished block: nothing to change.
		{"constant", []int{4, 6, 6}, Spec{Before: []int{1, 1, 1}, After: []int{1, 1, 1}}, nil},
		// A long axis repeating a short period: too many segments.
		{"wrap many periods", []int{2, 6, 6}, Spec{Mode: Wrap, Before: []int{40, 0, 1}, After: []int{0, 0, 1}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := newExecPlan(c.shape, c.spec)
			if err != nil {
				t.Fatal(err)
			}
			got := inputForm(&p.levels[0])
			if c.want == nil {
				if got != nil {
					t.Fatalf("inputForm = %v, want nil", got)
				}
				return
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("inputForm of %v = %v, want %v", p.levels[0].segs, got, c.want)
			}
			if p.inputLevels == nil || !slices.Equal(p.inputLevels[0].segs, c.want) {
				t.Fatalf("the plan's input program does not use the input form: %v", p.inputLevels)
			}
		})
	}
}

// TestCopyBytesLarge: copies around the size from which the runtime's
// memmove streams (memmoveStreams on amd64), where copyBytes takes the
// copy kernel in outputs that do not stream, at odd offsets and lengths.
func TestCopyBytesLarge(t *testing.T) {
	const n = 1<<20 + 3<<10
	src := make([]byte, n+64)
	for i := range src {
		src[i] = byte(i*7 + i>>11)
	}
	dst := make([]byte, n+64)
	for _, size := range []int{1<<20 - 1, 1 << 20, 1<<20 + 1, 1<<20 + 777, n} {
		for _, stream := range []bool{false, true} {
			for _, off := range []int{0, 5} {
				clear(dst)
				copyBytes(dst[off:off+size], src[3:3+size], stream)
				if !slices.Equal(dst[off:off+size], src[3:3+size]) {
					t.Fatalf("size %d stream %v dst offset %d: the copy differs", size, stream, off)
				}
				if slices.ContainsFunc(dst[:off], func(b byte) bool { return b != 0 }) || slices.ContainsFunc(dst[off+size:], func(b byte) bool { return b != 0 }) {
					t.Fatalf("size %d stream %v dst offset %d: bytes outside the copy written", size, stream, off)
				}
			}
		}
	}
}

// TestEdgeForms: the forward and backward forms of edge-padded levels
// (segForms), exactly.
func TestEdgeForms(t *testing.T) {
	src := func(at, n, from int) segment { return segment{kind: segSrc, at: at, n: n, src: from, step: 1} }
	rep := func(at, n, step int) segment { return segment{kind: segRepeat, at: at, n: n, step: step} }
	for _, c := range []struct {
		name              string
		shape             []int
		spec              Spec
		forward, backward []segment // the top level's forms; nil: segs is that form
		none              bool      // no forms
	}{
		// Suite case h: one plane each side.
		{"edge", []int{4, 6, 6}, Spec{Mode: Edge, Before: []int{1, 1, 1}, After: []int{1, 1, 1}},
			[]segment{src(0, 1, 0), src(2, 3, 1), rep(1, 1, 1), rep(5, 1, 1)},
			[]segment{src(1, 3, 0), src(5, 1, 3), rep(4, 1, -1), rep(0, 1, -1)}, false},
		{"two before, three after", []int{3, 6, 6}, Spec{Mode: Edge, Before: []int{2, 0, 1}, After: []int{3, 0, 1}},
			[]segment{src(0, 1, 0), src(3, 2, 1), rep(1, 2, 1), rep(5, 3, 1)},
			[]segment{src(2, 2, 0), src(7, 1, 2), rep(4, 3, -1), rep(0, 2, -1)}, false},
		{"one input block", []int{1, 6, 6}, Spec{Mode: Edge, Before: []int{1, 0, 1}, After: []int{2, 0, 1}},
			[]segment{src(0, 1, 0), rep(1, 1, 1), rep(2, 2, 1)},
			[]segment{src(3, 1, 0), rep(1, 2, -1), rep(0, 1, -1)}, false},
		// One side only: its copies already go one way.
		{"before only", []int{3, 6, 6}, Spec{Mode: Edge, Before: []int{2, 0, 1}, After: []int{0, 0, 1}},
			[]segment{src(0, 1, 0), src(3, 2, 1), rep(1, 2, 1)}, nil, false},
		{"after only", []int{3, 6, 6}, Spec{Mode: Edge, Before: []int{0, 0, 1}, After: []int{1, 0, 1}},
			nil, []segment{src(0, 2, 0), src(3, 1, 2), rep(2, 1, -1)}, false},
		// Not edge runs: no forms.
		{"reflect", []int{4, 6, 6}, Spec{Mode: Reflect, Before: []int{1, 0, 1}, After: []int{1, 0, 1}}, nil, nil, true},
		{"constant", []int{4, 6, 6}, Spec{Before: []int{1, 1, 1}, After: []int{1, 1, 1}}, nil, nil, true},
		{"cropped", []int{4, 6, 6}, Spec{Mode: Edge, Before: []int{-1, 0, 1}, After: []int{1, 0, 1}},
			nil, []segment{src(0, 2, 1), src(3, 1, 3), rep(2, 1, -1)}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := newExecPlan(c.shape, c.spec)
			if err != nil {
				t.Fatal(err)
			}
			lv := &p.levels[0]
			if last := &p.levels[len(p.levels)-1]; last.forms != nil {
				t.Errorf("the innermost level has forms: %+v", last.forms)
			}
			if c.none {
				if lv.forms != nil {
					t.Fatalf("forms of %v = %+v, want none", lv.segs, lv.forms)
				}
				return
			}
			if lv.forms == nil {
				t.Fatalf("no forms of %v", lv.segs)
			}
			if !slices.Equal(lv.forms.forward, c.forward) || !slices.Equal(lv.forms.backward, c.backward) {
				t.Fatalf("forms of %v:\nforward  %v, want %v\nbackward %v, want %v", lv.segs, lv.forms.forward, c.forward, lv.forms.backward, c.backward)
			}
			if p.inputLevels != nil && p.inputLevels[0].forms != nil {
				t.Errorf("the input program keeps forms")
			}
		})
	}
}

// TestCopyDirection: runs copy finished blocks away from REP MOVSB's slow
// distances (repDirection), and the executor takes the matching form.
func TestCopyDirection(t *testing.T) {
	hasRep := levelHasRep()
	setForTest(t, &repMinBytes, 4<<10)
	for _, c := range []struct {
		n, want int
	}{
		{514 * 514 * 8, -1}, // suite case h's planes: 32 bytes past a multiple of 4 KiB
		{4096*9 + 63, -1},
		{4096*9 + 64, 0},
		{4096 * 9, 0},
		{4096*10 - 64, 0},
		{4096*10 - 63, 1},
		{4096*10 - 32, 1},
		{4096*10 - 1, 1},
		{4096 - 32, 0}, // below repMinBytes
	} {
		want := c.want
		if !hasRep {
			want = 0
		}
		if got := repDirection(c.n); got != want {
			t.Errorf("repDirection(%d) = %d, want %d", c.n, got, want)
		}
	}
	p, err := newExecPlan([]int{4, 512, 512}, Spec{Mode: Edge, Before: []int{1, 1, 1}, After: []int{1, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	k := &byteKernels{size: 8}
	x := executor[*byteKernels]{k: k, levels: p.levels, strides: p.strides}
	want := p.levels[0].segs
	if hasRep {
		want = p.levels[0].forms.backward
	}
	if got := x.segs(0); &got[0] != &want[0] {
		t.Errorf("float64 [4,512,512] edge: the top level runs %v, want %v", got, want)
	}
	k.stream = true // streamed runs copy no finished block
	if got := x.segs(0); &got[0] != &p.levels[0].segs[0] {
		t.Errorf("streamed: the top level runs %v, want its segments", got)
	}
	k.stream, k.size = false, 4 // float32 planes: 16 bytes off, still slow forward
	if got := x.segs(0); &got[0] != &want[0] {
		t.Errorf("float32: the top level runs %v, want %v", got, want)
	}
	k.size = 2 // 8 bytes off
	if got := x.segs(0); &got[0] != &want[0] {
		t.Errorf("int16: the top level runs %v, want %v", got, want)
	}
	k.size = 1 // 514*514 = 264196: 2052 modulo 4 KiB, fast both ways
	if got := x.segs(0); &got[0] != &p.levels[0].segs[0] {
		t.Errorf("uint8: the top level runs %v, want its segments", got)
	}
}
