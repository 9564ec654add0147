package pad

import (
	"fmt"
	"math"
	"slices"
)

// The planner turns a Spec into a short program. Each output axis is cut
// into a few segments, each a run of output "blocks" (the sub-tensors below
// that axis) made one way: filled with the value, read from the input,
// duplicated from blocks already written, or continued periodically from
// them. A segment list has a handful of entries whatever the pad sizes, so
// a plan's size does not grow with the pads, and executing it is a
// proportional number of copies and fills of whole blocks: large pads become
// doubling copies of finished output, never per-element index arithmetic.

// axis is one axis of a checked Spec.
type axis struct {
	inLen, outLen           int
	before, after, interior int
}

// check validates s for an input of the given shape and returns its axes.
// The checks and their order are documented in SEMANTICS §7.
func (s Spec) check(shape []int) ([]axis, error) {
	r := len(shape)
	if int(s.Mode) >= len(modeNames) {
		return nil, fmt.Errorf("%w: unknown mode %v", ErrInvalidSpec, s.Mode)
	}
	if s.Order != CropThenPad && s.Order != PadThenCrop {
		return nil, fmt.Errorf("%w: unknown order %v", ErrInvalidSpec, s.Order)
	}
	if len(s.Before) != r || len(s.After) != r {
		return nil, fmt.Errorf("%w: %d before and %d after pads for rank %d", ErrInvalidSpec, len(s.Before), len(s.After), r)
	}
	if s.Interior != nil && len(s.Interior) != r {
		return nil, fmt.Errorf("%w: %d interior pads for rank %d", ErrInvalidSpec, len(s.Interior), r)
	}
	axes := make([]axis, r)
	for i, d := range shape {
		a := axis{inLen: d, before: s.Before[i], after: s.After[i]}
		if s.Interior != nil {
			a.interior = s.Interior[i]
		}
		if err := a.check(s.Mode, s.Order); err != nil {
			return nil, fmt.Errorf("%w: axis %d: %s", err, i, a.describe())
		}
		axes[i] = a
	}
	// An empty tensor is empty whatever its other axes, so a product with a
	// zero factor is never too large.
	inZero, outZero := false, false
	for _, a := range axes {
		inZero = inZero || a.inLen == 0
		outZero = outZero || a.outLen == 0
	}
	in, out := 1, 1
	for i, a := range axes {
		var ok bool
		if !inZero {
			if in, ok = mulFits(in, a.inLen); !ok {
				return nil, fmt.Errorf("%w: axis %d: input shape %v has more than %d elements", ErrTooLarge, i, shape, math.MaxInt)
			}
		}
		if !outZero {
			if out, ok = mulFits(out, a.outLen); !ok {
				return nil, fmt.Errorf("%w: axis %d: output has more than %d elements", ErrTooLarge, i, math.MaxInt)
			}
		}
	}
	return axes, nil
}

// check validates one axis and sets its output length. The caller adds the
// axis number to the message.
func (a *axis) check(m Mode, o Order) error {
	d, k := a.inLen, a.interior
	switch {
	case d < 0:
		return fmt.Errorf("%w: negative dimension", ErrInvalidSpec)
	case k < 0:
		return fmt.Errorf("%w: negative interior pad", ErrInvalidSpec)
	case k > 0 && m != Constant:
		return fmt.Errorf("%w: interior padding needs constant mode, not %v", ErrInvalidSpec, m)
	}
	dilated := d
	if d > 0 && k > 0 {
		// (d-1)*(k+1) + 1
		if k == math.MaxInt || d-1 > (math.MaxInt-1)/(k+1) {
			return fmt.Errorf("%w: dilated length overflows", ErrTooLarge)
		}
		dilated = (d-1)*(k+1) + 1
	}
	// before + dilated + after, exactly: the pads are added first, so that
	// only a sum whose true value lies outside the int range fails.
	pads, ok := addFits(a.before, a.after)
	if !ok && a.before < 0 { // below math.MinInt, and dilated cannot bring it back
		return fmt.Errorf("%w: output length is negative", ErrInvalidSpec)
	}
	n := 0
	if ok {
		n, ok = addFits(pads, dilated)
	}
	if !ok {
		return fmt.Errorf("%w: output length overflows", ErrTooLarge)
	}
	if n < 0 {
		return fmt.Errorf("%w: output length %d is negative", ErrInvalidSpec, n)
	}
	a.outLen = n
	if m == Constant {
		return nil
	}
	positive := a.before > 0 || a.after > 0
	if o == CropThenPad {
		// Adding the negative pads cannot overflow: with both negative the
		// sum is n, checked above. (Negating them could: -math.MinInt.)
		w := d + min(0, a.before) + min(0, a.after)
		if w < 0 {
			return fmt.Errorf("%w: crop of %d elements exceeds the axis", ErrInvalidSpec, d-w)
		}
		if w == 0 && positive {
			return fmt.Errorf("%w: nothing left to extend in %v mode after cropping", ErrEmptyAxis, m)
		}
	} else if d == 0 && positive {
		return fmt.Errorf("%w: nothing to extend in %v mode", ErrEmptyAxis, m)
	}
	return nil
}

func (a *axis) describe() string {
	s := fmt.Sprintf("dim %d, before %d, after %d", a.inLen, a.before, a.after)
	if a.interior != 0 {
		s += fmt.Sprintf(", interior %d", a.interior)
	}
	return s
}

func addFits(a, b int) (int, bool) {
	s := a + b
	return s, (s > a) == (b > 0)
}

// mulFits multiplies non-negative ints; ok is false on overflow.
func mulFits(a, b int) (int, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	if a > math.MaxInt/b {
		return 0, false
	}
	return a * b, true
}

// A segment makes the output blocks [at, at+n) of one axis.
type segment struct {
	kind  segKind
	at, n int
	src   int // segSrc, segDilate: first input index; segDup: first source block
	step  int // segSrc, segDup: +1 or -1; segDilate: value blocks between elements; segRepeat: period (negative: backward)
}

type segKind uint8

const (
	// segFill: n blocks of the value.
	segFill segKind = iota
	// segSrc: block at+t is input block src + t*step.
	segSrc
	// segDilate: n input blocks from src upward, step value blocks between
	// neighbours; it spans (n-1)*(step+1)+1 output blocks.
	segDilate
	// segDup: block at+t is a copy of the finished output block src + t*step.
	segDup
	// segRepeat: the blocks continue the period |step| of their finished
	// neighbours: block j = block j-step, from the left side (step > 0) or
	// from the right side (step < 0).
	segRepeat
)

// level is one axis of a compiled program.
type level struct {
	segs          []segment // in execution order: a segment reads only blocks written before it
	inLen, outLen int
	blk           int      // output elements per block
	row           rowForm  // the innermost level's program, when a row kernel can run it
	runs          []rowRun // the level above the innermost: its rows as runs from the input
	// list: the level above the innermost, when its rows are all made
	// from input rows and no wider than the wide kernel's: a plane of
	// narrow rows is one pass of the shuffle kernel, and the run of its
	// middle rows (narrow or wide) one of the lines kernel; or nil.
	list *rowList
	// forms: segs rewritten so that every copy of finished output reads
	// an earlier block, or every one a later block (edgeForms); nil for
	// the innermost level and where segs cannot be.
	forms *segForms
}

// segForms are a level's segments in two other orders that make the same
// blocks (nil: segs is that form already). Copies by REP MOVSB are slow
// when dst lies 1 to 63 bytes after src modulo 4 KiB, so where one block
// of a level ends that way after the block before it, the executor takes
// the form whose copies read later blocks (the kernels' copyDirection).
type segForms struct {
	forward  []segment // copies read earlier blocks only
	backward []segment // copies read later blocks only
}

// edgeForms returns the forms of an edge-padded level: one run of input
// blocks with the first repeated before it and the last after it. The
// forward form makes block 0 from the input and repeats it up to the run;
// the backward form makes the last block from the input and repeats it
// down to the run's last block. Other levels have none (nil).
func edgeForms(lv *level) *segForms {
	var run segment
	var before, after int // the pad blocks before and after the run
	runs := 0
	for _, s := range lv.segs {
		switch {
		case s.kind == segSrc && s.step == 1 && s.n > 0:
			run = s
			runs++
		case s.kind == segRepeat && s.step == -1 && s.at == 0:
			before = s.n
		case s.kind == segRepeat && s.step == 1 && s.at+s.n == lv.outLen:
			after = s.n
		default:
			return nil
		}
	}
	L, start, n := lv.outLen, run.at, run.n
	if runs != 1 || before != start || start+n+after != L || before+after == 0 {
		return nil
	}
	src := func(at, n, from int) segment { return segment{kind: segSrc, at: at, n: n, src: from, step: 1} }
	rep := func(at, n, step int) segment { return segment{kind: segRepeat, at: at, n: n, step: step} }
	f := &segForms{}
	if before > 0 { // the run's first block repeats from block 0 on
		f.forward = []segment{src(0, 1, run.src)}
		if n > 1 {
			f.forward = append(f.forward, src(start+1, n-1, run.src+1))
		}
		f.forward = append(f.forward, rep(1, before, 1))
		if after > 0 {
			f.forward = append(f.forward, rep(start+n, after, 1))
		}
	}
	if after > 0 { // the run's last block repeats from block L-1 down
		if n > 1 {
			f.backward = []segment{src(start, n-1, run.src)}
		}
		f.backward = append(f.backward, src(L-1, 1, run.src+n-1), rep(start+n-1, after, -1))
		if before > 0 {
			f.backward = append(f.backward, rep(0, before, -1))
		}
	}
	return f
}

// rowList is the rows of a plane as the input rows they are made from.
type rowList struct {
	idx []int32 // the input row of each row
	max int     // the largest of idx
	// run0 to run1 is the longest run of rows made from consecutive input
	// rows (idx[t] = idx[run0]+t-run0; the first of the longest), which
	// the kernels step through instead of reading the list.
	run0, run1 int
}

// planeBytes returns the output bytes a plane of l's rows reaches from its
// first, rows width bytes wide and dstStride apart: the kernels take a
// plane of at most chunkBytes (rowListBatches).
func (l *rowList) planeBytes(dstStride, width int) int {
	return (len(l.idx)-1)*dstStride + width
}

// newRowList returns the list of idx, which must not be empty.
func newRowList(idx []int32) *rowList {
	l := &rowList{idx: idx, max: int(slices.Max(idx))}
	for a := 0; a < len(idx); {
		b := a + 1
		for b < len(idx) && idx[b] == idx[b-1]+1 {
			b++
		}
		if b-a > l.run1-l.run0 {
			l.run0, l.run1 = a, b
		}
		a = b
	}
	return l
}

// rowRun is a run of n rows (blocks) of the level above the innermost,
// from row at: filled with the value, or row at+t made from input row
// src+t*step (step 1, or 0: n copies of one input row, as edge padding
// makes). Unlike the segments, runs never read finished output, so a
// rows kernel makes each run for every plane of a batch in one call.
type rowRun struct {
	at, n, src, step int
	fill             bool
}

// maxRowRunSplit bounds the rows of a mirrored segment that runsOf splits
// into one run per row.
const maxRowRunSplit = 8

// runsOf expresses the segments of lv as row runs, or returns nil.
func runsOf(lv *level) []rowRun {
	// srcOf returns the input row of output block b when a forward segSrc
	// makes it.
	srcOf := func(b int) (int, bool) {
		for _, s := range lv.segs {
			if s.kind == segSrc && s.step == 1 && b >= s.at && b < s.at+s.n {
				return s.src + b - s.at, true
			}
		}
		return 0, false
	}
	var runs []rowRun
	for _, s := range lv.segs {
		switch {
		case s.kind == segFill:
			runs = append(runs, rowRun{at: s.at, n: s.n, fill: true})
		case s.kind == segSrc && (s.step == 1 || s.step == 0):
			runs = append(runs, rowRun{at: s.at, n: s.n, src: s.src, step: s.step})
		case s.kind == segSrc && s.step == -1 && s.n <= maxRowRunSplit:
			for t := 0; t < s.n; t++ {
				runs = append(runs, rowRun{at: s.at + t, n: 1, src: s.src - t})
			}
		case s.kind == segRepeat && (s.step == 1 || s.step == -1): // period 1: edge
			b := s.at - 1
			if s.step < 0 {
				b = s.at + s.n
			}
			src, ok := srcOf(b)
			if !ok {
				return nil
			}
			runs = append(runs, rowRun{at: s.at, n: s.n, src: src})
		case s.kind == segDup && s.n <= maxRowRunSplit:
			for t := 0; t < s.n; t++ {
				src, ok := srcOf(s.src + t*s.step)
				if !ok {
					return nil
				}
				runs = append(runs, rowRun{at: s.at + t, n: 1, src: src})
			}
		default:
			return nil
		}
	}
	return mergeRuns(runs)
}

// mergeRuns joins runs that continue each other, in dst and forward in
// the input (the rows of a wrap pad, one run a row from their segDup, and
// the like), so that each is one rows call for a batch of planes: float64
// 14x14 planes wrapped by 3 took seven calls a plane, three after.
func mergeRuns(runs []rowRun) []rowRun {
	forward := func(r rowRun) bool { return !r.fill && (r.step == 1 || r.n == 1) }
	out := runs[:0]
	for _, r := range runs {
		if n := len(out); n > 0 {
			if last := &out[n-1]; forward(*last) && forward(r) && last.at+last.n == r.at && last.src+last.n == r.src {
				last.n, last.step = last.n+r.n, 1
				continue
			}
		}
		out = append(out, r)
	}
	return out
}

// rowForm describes an innermost row made of left blocks of padding, mid
// blocks copied from the input from index src on, and right blocks of
// padding: the value (rowConst), the row's edge blocks (rowEdge), or
// pieces of the row's own input, forward or mirrored (rowPieces: reflect,
// symmetric and wrap within one period).
type rowForm struct {
	kind             rowKind
	left, mid, right int // in elements
	unit             int // elements per block: what an edge pad repeats
	src              int // input index of the first copied block
	pieces           []rowPiece
	// For rowPieces: whether every piece reads its input run backward
	// (reversed: reflect, symmetric) or forward (forward: wrap), a piece
	// of one block counting as its step says; and the element, in the
	// copied input run, of each pad's first output block (0 for an empty
	// pad). rowOf works them out once for the executor's every call.
	reversed, forward bool
	from              [2]int
}

// rowPiece is a run of n output blocks from output block at, block at+t
// being input block src + t*step (step +1 or -1).
type rowPiece struct{ at, n, src, step int }

type rowKind uint8

const (
	rowGeneral rowKind = iota // any other program: the executor runs it
	rowConst
	rowEdge
	rowPieces
)

// rowOf recognises the programs of constant and edge padding of a row,
// and of padding by pieces of the row itself: mirrored (reflect,
// symmetric) or forward (wrap, whose pads repeat the period of the row).
func rowOf(lv *level) rowForm {
	var r rowForm
	var pads []segment
	for _, s := range lv.segs {
		switch {
		case s.kind == segSrc && s.step == 1 && r.mid == 0:
			r.left, r.mid, r.src = s.at, s.n, s.src
		case s.kind == segFill || (s.kind == segRepeat || s.kind == segDup) && (s.step == 1 || s.step == -1):
			pads = append(pads, s)
		case s.kind == segRepeat && s.n <= max(s.step, -s.step):
			// Less than one period: a forward copy of finished blocks.
			pads = append(pads, segment{kind: segDup, at: s.at, n: s.n, src: s.at - s.step, step: 1})
		default:
			return rowForm{}
		}
	}
	if r.mid == 0 || len(pads) > 2 {
		return rowForm{}
	}
	r.right = lv.outLen - r.left - r.mid
	r.kind, r.unit = rowConst, lv.blk
	if len(pads) > 0 && pads[0].kind == segRepeat {
		r.kind = rowEdge
	}
	if len(pads) > 0 && pads[0].kind == segDup {
		r.kind = rowPieces
	}
	for _, s := range pads {
		left := s.at == 0 && s.n == r.left
		right := s.at == r.left+r.mid && s.n == r.right
		first, last := s.src, s.src+(s.n-1)*s.step // for segDup: the output blocks copied
		switch {
		case s.kind == segFill && r.kind == rowConst && (left || right):
		case s.kind == segRepeat && r.kind == rowEdge && (left && s.step == -1 || right && s.step == 1):
		case s.kind == segDup && r.kind == rowPieces && (left || right) &&
			min(first, last) >= r.left && max(first, last) < r.left+r.mid:
			r.pieces = append(r.pieces, rowPiece{at: s.at, n: s.n, src: r.src + s.src - r.left, step: s.step})
		default:
			return rowForm{}
		}
	}
	if r.kind == rowPieces {
		r.reversed, r.forward = true, true
		for _, p := range r.pieces {
			r.reversed = r.reversed && p.step < 0
			r.forward = r.forward && p.step > 0
			r.from[btoi(p.at != 0)] = (p.src - r.src) * r.unit
		}
	}
	r.left, r.mid, r.right = r.left*r.unit, r.mid*r.unit, r.right*r.unit
	return r
}

// segments returns the program of one axis: how each of its outLen output
// blocks is made. An axis of an empty output needs none.
func (a axis) segments(m Mode, o Order) []segment {
	L := a.outLen
	if L == 0 {
		return nil
	}
	if m == Constant {
		return constantSegments(a.inLen, a.before, a.interior, L)
	}
	// Both orders read out[j] = in[base + ext(j-off)], ext extending the
	// n elements in[base : base+n] (SEMANTICS §3, §4).
	base, n, off := 0, a.inLen, a.before
	if o == CropThenPad {
		base = max(0, -a.before)
		n = a.inLen - base - max(0, -a.after)
		off = max(0, a.before)
	}
	// check guarantees n >= 1 when L > 0. One element extends the same way
	// in every mode.
	if m == Edge || n == 1 {
		return edgeSegments(base, n, off, L)
	}
	return periodicSegments(m, base, n, off, L)
}

// constantSegments: out[j] = in[(j-before)/(k+1)] where that dilated
// position holds an element, the value elsewhere.
func constantSegments(d, before, k, L int) []segment {
	fill := []segment{{kind: segFill, n: L}}
	if d == 0 {
		return fill
	}
	period := k + 1
	dilated := (d-1)*period + 1
	if before < -dilated { // written so that -before cannot overflow
		return fill
	}
	t0, t1 := max(0, -before), min(dilated, L-before) // dilated positions in the window
	if t0 >= t1 {
		return fill
	}
	e0, e1 := ceilDiv(t0, period), (t1-1)/period // elements in the window
	if e0 > e1 {
		return fill
	}
	n := e1 - e0 + 1
	at := before + e0*period
	end := at + (n-1)*period + 1
	var segs []segment
	if k == 0 {
		segs = append(segs, segment{kind: segSrc, at: at, n: n, src: e0, step: 1})
	} else {
		segs = append(segs, segment{kind: segDilate, at: at, n: n, src: e0, step: k})
	}
	if at > 0 {
		segs = append(segs, segment{kind: segFill, at: 0, n: at})
	}
	if end < L {
		segs = append(segs, segment{kind: segFill, at: end, n: L - end})
	}
	return segs
}

// edgeSegments: out[j] = in[base + clamp(j-off, 0, n-1)].
func edgeSegments(base, n, off, L int) []segment {
	start, end := clamp(off, 0, L), clamp(off+n, 0, L) // blocks read straight from the input
	switch {
	case start < end:
		segs := []segment{{kind: segSrc, at: start, n: end - start, src: base + start - off, step: 1}}
		if start > 0 {
			segs = append(segs, segment{kind: segRepeat, at: 0, n: start, step: -1})
		}
		if end < L {
			segs = append(segs, segment{kind: segRepeat, at: end, n: L - end, step: 1})
		}
		return segs
	case start == L: // the whole output lies before the data: all in[base]
		segs := []segment{{kind: segSrc, at: L - 1, n: 1, src: base, step: 1}}
		if L > 1 {
			segs = append(segs, segment{kind: segRepeat, at: 0, n: L - 1, step: -1})
		}
		return segs
	default: // the whole output lies after the data: all in[base+n-1]
		segs := []segment{{kind: segSrc, at: 0, n: 1, src: base + n - 1, step: 1}}
		if L > 1 {
			segs = append(segs, segment{kind: segRepeat, at: 1, n: L - 1, step: 1})
		}
		return segs
	}
}

// periodicSegments: out[j] = in[base + ext(j-off)] for reflect, symmetric
// and wrap, whose extensions of n >= 2 elements have period p. One period of
// output is made from the input (at most three pieces: ascending runs and a
// mirrored run), preferably copying the mirrored run from the ascending one;
// the rest of the axis repeats that period by doubling copies. Pads that
// the input covers once (singlePieceSegments) are a copy each.
func periodicSegments(m Mode, base, n, off, L int) []segment {
	if segs := singlePieceSegments(m, base, n, off, L); segs != nil {
		return segs
	}
	p := n // Wrap
	switch m {
	case Reflect:
		p = 2 * (n - 1)
	case Symmetric:
		p = 2 * n
	}
	ws := clamp(off, 0, max(0, L-p))
	we := min(ws+p, L)

	// The pieces of [ws, we): runs of consecutive input indices.
	type piece struct{ at, n, idx, dir int }
	var pieces [3]piece
	np, primary := 0, -1
	for j := ws; j < we; {
		r := mod(mod(j, p)-mod(off, p), p) // (j-off) mod p; j-off may overflow
		pc := piece{at: j, dir: 1, idx: r, n: min(n-r, we-j)}
		if r >= n { // the mirrored half of the period
			pc.dir, pc.n = -1, min(p-r, we-j)
			pc.idx = p - r // Reflect
			if m == Symmetric {
				pc.idx = p - 1 - r
			}
		}
		if pc.dir > 0 && (primary < 0 || pc.n > pieces[primary].n) {
			primary = np
		}
		pieces[np] = pc
		np++
		j += pc.n
	}

	segs := make([]segment, 0, np+2)
	var lo, hi int // input indices the primary piece covers
	if primary >= 0 {
		pr := pieces[primary]
		segs = append(segs, segment{kind: segSrc, at: pr.at, n: pr.n, src: base + pr.idx, step: 1})
		lo, hi = pr.idx, pr.idx+pr.n-1
	}
	for i, pc := range pieces[:np] {
		if i == primary {
			continue
		}
		first, last := pc.idx, pc.idx+(pc.n-1)*pc.dir
		if primary >= 0 && min(first, last) >= lo && max(first, last) <= hi {
			from := pieces[primary].at + first - lo
			segs = append(segs, segment{kind: segDup, at: pc.at, n: pc.n, src: from, step: pc.dir})
		} else {
			segs = append(segs, segment{kind: segSrc, at: pc.at, n: pc.n, src: base + first, step: pc.dir})
		}
	}
	if we-ws == p {
		if ws > 0 {
			segs = append(segs, segment{kind: segRepeat, at: 0, n: ws, step: -p})
		}
		if we < L {
			segs = append(segs, segment{kind: segRepeat, at: we, n: L - we, step: p})
		}
	}
	return segs
}

// singlePieceSegments returns the segments of an axis whose pads each
// take one piece of the input (reflect: pads of at most n-1; symmetric and
// wrap: at most n): the input at off, and each pad a copy of the output's
// copy of it, backward (reflect, symmetric) or forward (wrap); nil for
// longer pads. The general form of periodicSegments may make such an axis
// in more segments (reflect by 3 of 7 elements: its first pad block
// repeated from a period on), which the row kernels do not take.
func singlePieceSegments(m Mode, base, n, off, L int) []segment {
	after := L - off - n
	most := n
	if m == Reflect {
		most = n - 1
	}
	if off < 0 || after < 0 || off > most || after > most {
		return nil
	}
	segs := []segment{{kind: segSrc, at: off, n: n, src: base, step: 1}}
	// The output block that pad block 0 equals, and the step to the
	// block of the next pad block.
	var left, right, step int
	switch m {
	case Reflect: // out[j] = out[2*off-j]; out[off+n+t] = out[off+n-2-t]
		left, right, step = 2*off, off+n-2, -1
	case Symmetric: // out[j] = out[2*off-1-j]; out[off+n+t] = out[off+n-1-t]
		left, right, step = 2*off-1, off+n-1, -1
	default: // Wrap: out[j] = out[n+j]; out[off+n+t] = out[off+t]
		left, right, step = n, off, 1
	}
	if off > 0 {
		segs = append(segs, segment{kind: segDup, at: 0, n: off, src: left, step: step})
	}
	if after > 0 {
		segs = append(segs, segment{kind: segDup, at: off + n, n: after, src: right, step: step})
	}
	return segs
}

func clamp(x, lo, hi int) int { return min(max(x, lo), hi) }

// mod is x mod p in [0, p).
func mod(x, p int) int {
	r := x % p
	if r < 0 {
		r += p
	}
	return r
}

// compile builds the Plan of a checked Spec.
func compile(s Spec, axes []axis) *Plan {
	p := &Plan{in: make([]int, len(axes)), out: make([]int, len(axes)), inLen: 1, outLen: 1}
	for i, a := range axes {
		p.in[i], p.out[i] = a.inLen, a.outLen
		p.inLen *= a.inLen
		p.outLen *= a.outLen
	}
	if p.outLen == 0 {
		return p // nothing to do, however large the other axes
	}
	p.axes = make([]level, max(len(axes), 1)) // rank 0: one element
	for i, a := range axes {
		p.axes[i] = level{segs: a.segments(s.Mode, s.Order), inLen: a.inLen, outLen: a.outLen}
	}
	if len(axes) == 0 {
		p.axes[0] = identityLevel(1)
	}
	all := p.axes[:len(axes)]

	// Merge: innermost unpadded axes become the group every innermost
	// block copies at once, other runs of unpadded axes become one axis,
	// and unpadded axes of length 1 disappear. (p.levels holds copies of
	// the axes' levels, so that setBlocks gives each program its own.)
	group, inner := 1, len(all)
	for inner > 0 && all[inner-1].identity() {
		group *= all[inner-1].inLen
		inner--
	}
	p.levels = make([]level, 0, max(inner, 1))
	for _, lv := range all[:inner] {
		if lv.identity() {
			if lv.inLen == 1 {
				continue
			}
			if last := len(p.levels) - 1; last >= 0 && p.levels[last].identity() {
				p.levels[last] = identityLevel(p.levels[last].inLen * lv.inLen)
				continue
			}
		}
		p.levels = append(p.levels, lv)
	}
	if len(p.levels) == 0 {
		p.levels = append(p.levels, identityLevel(1))
	}
	setBlocks(p.axes, 1)
	setBlocks(p.levels, group)
	last := &p.levels[len(p.levels)-1]
	last.row = rowOf(last)
	if n := len(p.levels); n >= 2 && last.row.kind != rowGeneral {
		p.levels[n-2].runs = runsOf(&p.levels[n-2])
	}
	p.strides = make([]int, len(p.levels))
	stride := group
	for i := len(p.levels) - 1; i >= 0; i-- {
		p.strides[i] = stride
		stride *= p.levels[i].inLen
	}
	if n := len(p.levels); n >= 2 && last.row.kind != rowGeneral && last.outLen*last.blk <= wideMax {
		pl := &p.levels[n-2]
		pl.list = rowListOf(pl.runs, pl.outLen)
	}
	for _, lvs := range [][]level{p.levels, p.axes} {
		for i := range len(lvs) - 1 {
			lvs[i].forms = edgeForms(&lvs[i])
		}
	}
	p.inputLevels, p.inputAxes = inputProgram(p.levels), inputProgram(p.axes)
	return p
}

// inputProgram returns the program levels with the blocks of every level
// above the innermost that copy finished output (segDup, segRepeat) made
// from the input instead (inputForm), or nil if no level changes. A run
// whose output is larger than the core's cache uses it (pastCache): what
// it wrote has gone to a farther cache or to memory (streaming stores),
// and reading the input again costs no more than reading the output. The
// innermost level keeps its form: its copies are inside rows, which the
// row kernels make from the input already.
func inputProgram(levels []level) []level {
	var out []level
	for i := 0; i+1 < len(levels); i++ {
		segs := inputForm(&levels[i])
		if segs == nil {
			continue
		}
		if out == nil {
			out = slices.Clone(levels)
		}
		out[i].segs = segs // runs and rowIdx make rows from the input already
		out[i].forms = nil
	}
	return out
}

// Bounds of inputForm: the blocks of a level it maps one by one, and the
// segments it may make of them (a long axis repeating a short period would
// need one per period).
const (
	inputFormMaxBlocks = 1 << 16
	inputFormMaxSegs   = 16
)

// inputForm returns the segments of lv with the blocks of its segDup and
// segRepeat segments made from the input blocks they equal, as runs of
// segSrc (step 1, -1, or 0 for one block repeated) and segFill; or nil if lv
// has no such segment, dilates, or would need too many segments.
func inputForm(lv *level) []segment {
	copies := false
	for _, s := range lv.segs {
		copies = copies || s.kind == segDup || s.kind == segRepeat
		if s.kind == segDilate {
			return nil
		}
	}
	if !copies || lv.outLen > inputFormMaxBlocks {
		return nil
	}
	// from[j]: the input block output block j equals, or -1 for the value.
	from := make([]int, lv.outLen)
	for _, s := range lv.segs { // in execution order: sources come first
		for t := 0; t < s.n; t++ {
			switch s.kind {
			case segFill:
				from[s.at+t] = -1
			case segSrc:
				from[s.at+t] = s.src + t*s.step
			case segDup:
				from[s.at+t] = from[s.src+t*s.step]
			case segRepeat:
				if s.step > 0 {
					from[s.at+t] = from[s.at+t-s.step]
				} else { // from the right: the blocks after it first
					j := s.at + s.n - 1 - t
					from[j] = from[j-s.step]
				}
			}
		}
	}
	var segs []segment
	for j := 0; j < len(from); {
		s := segment{kind: segFill, at: j, n: 1}
		if from[j] >= 0 {
			s = segment{kind: segSrc, at: j, n: 1, src: from[j], step: 1}
			if j+1 < len(from) && from[j+1] >= 0 && abs(from[j+1]-from[j]) <= 1 {
				s.step = from[j+1] - from[j]
			}
		}
		for e := j + 1; e < len(from) && (s.kind == segFill && from[e] < 0 ||
			s.kind == segSrc && from[e] >= 0 && from[e] == s.src+(e-j)*s.step); e++ {
			s.n++
		}
		if len(segs) == inputFormMaxSegs {
			return nil
		}
		segs = append(segs, s)
		j += s.n
	}
	return segs
}

func abs(x int) int { return max(x, -x) }

// rowListOf returns the list of the rows output rows that runs make (in
// any order), or nil if a run fills or the runs do not make every row
// once.
func rowListOf(runs []rowRun, rows int) *rowList {
	if rows == 0 {
		return nil
	}
	idx := make([]int32, rows)
	made := 0
	for _, r := range runs {
		if r.fill {
			return nil
		}
		for t := 0; t < r.n; t++ {
			idx[r.at+t] = int32(r.src + t*r.step)
		}
		made += r.n
	}
	if made != rows {
		return nil
	}
	return newRowList(idx)
}

// setBlocks sets the output block sizes of levels whose innermost blocks
// hold group elements.
func setBlocks(levels []level, group int) {
	blk := group
	for i := len(levels) - 1; i >= 0; i-- {
		levels[i].blk = blk
		blk *= levels[i].outLen
	}
}

func identityLevel(n int) level {
	return level{segs: []segment{{kind: segSrc, n: n, step: 1}}, inLen: n, outLen: n}
}

// identity reports whether the level copies its axis unchanged.
func (lv *level) identity() bool {
	return lv.inLen == lv.outLen && len(lv.segs) == 1 &&
		lv.segs[0] == segment{kind: segSrc, n: lv.inLen, step: 1}
}
