package pad

import "sync"

// The executor walks the levels of a compiled plan and hands the kernels
// whole runs: a fill of many blocks, a copy of a run of input, a copy of
// finished output, a block of rows padded alike; runs of small sub-tensors
// go across, each segment for many of them (across). Offsets and counts
// are in elements.

// kernels is what the executor needs from an element representation.
type kernels interface {
	// fill writes the value to dst[off : off+n].
	fill(off, n int)
	// copySrc copies count units of width elements, unit t from
	// src[srcOff+t*step:], to dst[off+t*width:]. step may be negative (a
	// reversed copy), zero (broadcast) or any stride.
	copySrc(off, srcOff, count, width, step int)
	// copyDst is copySrc within dst; source and destination do not overlap.
	copyDst(off, from, count, width, step int)
	// rows makes count rows of the innermost level lv (input index stride
	// stride), row t at dst[off+t*dstStride:] from the input row at
	// src[srcOff+t*srcStride:], or reports false to have the executor make
	// them one by one.
	rows(lv *level, count, off, dstStride, srcOff, srcStride, stride int) bool
	// planes makes n blocks of level pl, whose sub-level is the innermost
	// level lv, by pl's row runs: block p at dst[off+p*dstPlane:] from the
	// input at src[srcOff+p*srcPlane:], rowStride and stride the input
	// strides of pl and lv; or reports false to have the executor make them
	// one by one.
	planes(pl, lv *level, n, off, dstPlane, srcOff, srcPlane, rowStride, stride int) bool
	// cubes makes some of n blocks of the level above the three innermost
	// (cubes), block p at dst[off+p*dstCube:] from the input at
	// src[srcOff+p*srcCube:], and returns which: the blocks from first to
	// end (excluded); the executor makes the others.
	cubes(n, off, dstCube, srcOff, srcCube int) (first, end int)
	// flush ends a goroutine's share of a run: its stores are ordered
	// before any it makes after (streaming stores need a fence).
	flush()
	// fills fills n elements at off and at count-1 more offsets stride
	// elements apart.
	fills(off, n, count, stride int)
	// copiesDst copies n elements within dst from from to off, and at
	// count-1 more pairs of offsets stride elements after them.
	copiesDst(off, from, n, count, stride int)
	// dilate makes n input units of width elements, unit t from
	// src[srcOff+t*step:], at dst[off:] with gap units of the value
	// between neighbours (interior padding of the innermost level).
	dilate(off, srcOff, n, gap, width, step int)
	// acrossBatch returns how many sub-tensors of blk elements the
	// executor may make segment by segment (across); 1 for one at a time.
	acrossBatch(blk int) int
	// copyDirection reports which copies of finished blocks of blk
	// elements to prefer: 1 from earlier blocks, -1 from later ones, 0
	// either (segForms).
	copyDirection(blk int) int
}

// execute runs the levels of a plan with the given input strides on the
// given number of goroutines, those of a split run with their state from
// pool (parallel.go).
func execute[K kernels](k K, levels []level, strides []int, workers int, pool *sync.Pool) {
	if workers = min(workers, levels[0].outLen); workers > 1 {
		runParallel(k, levels, strides, workers, pool)
		return
	}
	x := executor[K]{k: k, levels: levels, strides: strides}
	x.run(0, 0, 0)
	k.flush()
}

type executor[K kernels] struct {
	k       K
	levels  []level
	strides []int
}

// run makes the output sub-tensor of level l at dst offset off from the
// input sub-tensor at src offset srcOff.
func (x *executor[K]) run(l, off, srcOff int) {
	segs := x.segs(l)
	for i := range segs {
		x.segment(l, off, srcOff, &segs[i])
	}
}

// segs returns the segments of level l in the form whose copies the
// kernels prefer (segForms).
func (x *executor[K]) segs(l int) []segment {
	lv := &x.levels[l]
	if lv.forms != nil {
		switch x.k.copyDirection(lv.blk) {
		case 1:
			if lv.forms.forward != nil {
				return lv.forms.forward
			}
		case -1:
			if lv.forms.backward != nil {
				return lv.forms.backward
			}
		}
	}
	return lv.segs
}

// segment makes the blocks of one segment of level l.
func (x *executor[K]) segment(l, off, srcOff int, s *segment) {
	lv := &x.levels[l]
	blk, stride := lv.blk, x.strides[l]
	at := off + s.at*blk
	switch s.kind {
	case segFill:
		x.k.fill(at, s.n*blk)
	case segSrc:
		x.blocks(l, s.n, at, blk, srcOff+s.src*stride, s.step*stride)
	case segDilate:
		x.dilate(l, s.n, at, srcOff+s.src*stride, s.step)
	case segDup:
		x.k.copyDst(at, off+s.src*blk, s.n, blk, s.step*blk)
	case segRepeat:
		repeat(x.k, at, s.n*blk, s.step*blk)
	}
}

// blocks makes n blocks of level l, block t at dst offset at+t*dstStep
// from the input block at src+t*srcStep. dstStep is the level's block
// size at the innermost level (copySrc's units follow each other); above
// it, across passes the stride of the sub-tensors it makes.
func (x *executor[K]) blocks(l, n, at, dstStep, src, srcStep int) {
	last := len(x.levels) - 1
	switch {
	case l == last:
		x.k.copySrc(at, src, n, x.levels[l].blk, srcStep)
		return
	case l+2 == len(x.levels) && x.k.rows(&x.levels[l+1], n, at, dstStep, src, srcStep, x.strides[l+1]):
		return
	case l+3 == len(x.levels) &&
		x.k.planes(&x.levels[l+1], &x.levels[l+2], n, at, dstStep, src, srcStep, x.strides[l+1], x.strides[l+2]):
		return
	}
	if l+4 == len(x.levels) {
		if first, end := x.k.cubes(n, at, dstStep, src, srcStep); end > first {
			x.subTensors(l, first, at, dstStep, src, srcStep)
			x.subTensors(l, n-end, at+end*dstStep, dstStep, src+end*srcStep, srcStep)
			return
		}
	}
	x.subTensors(l, n, at, dstStep, src, srcStep)
}

// subTensors makes n blocks of level l as blocks does, by the levels
// below: across, or one after the other.
func (x *executor[K]) subTensors(l, n, at, dstStep, src, srcStep int) {
	if l+1 < len(x.levels)-1 && n > 1 {
		if per := min(x.k.acrossBatch(x.levels[l].blk), n); per > 1 && x.acrossPays(l+1, per) {
			for p := 0; p < n; p += per {
				x.across(l+1, min(per, n-p), at+p*dstStep, dstStep, src+p*srcStep, srcStep)
			}
			return
		}
	}
	for t := range n {
		x.run(l+1, at+t*dstStep, src+t*srcStep)
	}
}

// Small sub-tensors go across: n sub-tensors of level l (above the
// innermost) are made segment by segment, each segment for all n, rather
// than one sub-tensor after the other. A run of s.n input blocks shorter
// than n takes s.n calls of n blocks each (dstStep apart) where it took n
// calls of s.n, a fill one call where it took n, and a copy of finished
// blocks one call (a run, or a repeat no longer than its period) or s.n
// (blocks in reverse, longer repeats) where it took n. Each call costs a few
// tens of ns before its first byte (uint8 [198, 1, 2, 84] zero-padded to
// [198, 3, 4, 86], cubes of 1 KiB: a planes call and a fill a cube, 100
// ns, 10x the memmove of the cube). The sub-tensors of a batch hold at
// most acrossBytes of output (the kernels' acrossBatch), which the L2
// cache keeps for the segments that copy finished blocks. PERFORMANCE.md,
// "Small sub-tensors, segment by segment", has the figures.

// across makes the n sub-tensors of level l at dst offsets at+p*dstStep
// from the input at src+p*srcStep, segment by segment.
func (x *executor[K]) across(l, n, at, dstStep, src, srcStep int) {
	blk, stride := x.levels[l].blk, x.strides[l]
	segs := x.segs(l)
	for i := range segs {
		s := &segs[i]
		switch {
		case s.kind == segFill:
			x.k.fills(at+s.at*blk, s.n*blk, n, dstStep)
		case s.kind == segSrc && s.n < n:
			for t := range s.n {
				x.blocks(l, n, at+(s.at+t)*blk, dstStep, src+(s.src+t*s.step)*stride, srcStep)
			}
		case (s.kind == segDup || s.kind == segRepeat) && x.copiesAcross(n, at, dstStep, blk, s):
		default:
			for p := range n {
				x.segment(l, at+p*dstStep, src+p*srcStep, s)
			}
		}
	}
}

// copiesAcross makes the copies of finished blocks of segment s (segDup,
// segRepeat) for the n sub-tensors at at+p*dstStep, a copiesDst call for
// them all, and reports whether it did: one call where the segment copies a
// run of blocks, else one a block if that takes fewer calls than n.
func (x *executor[K]) copiesAcross(n, at, dstStep, blk int, s *segment) bool {
	from, step := s.src, s.step // block t copies block from+t*step
	run := step == 1
	if s.kind == segRepeat { // block t copies block t-s.step, maybe in s
		from, step, run = s.at-s.step, 1, s.n <= abs(s.step)
	}
	switch {
	case run:
		x.k.copiesDst(at+s.at*blk, at+from*blk, s.n*blk, n, dstStep)
	case s.n < n:
		for i := range s.n {
			t := i // a repeat's block t reads block t-s.step, made before it
			if s.kind == segRepeat && s.step < 0 {
				t = s.n - 1 - i
			}
			x.k.copiesDst(at+(s.at+t)*blk, at+(from+t*step)*blk, blk, n, dstStep)
		}
	default:
		return false
	}
	return true
}

// acrossPays reports whether making n sub-tensors of level l across saves
// calls: whether a run of their input blocks is shorter than n. Fills
// alone do not pay: without such a run, across took the same time.
func (x *executor[K]) acrossPays(l, n int) bool {
	for _, s := range x.segs(l) {
		if s.kind == segSrc && s.n < n {
			return true
		}
	}
	return false
}

// dilate makes n input blocks of level l with gap value blocks between
// neighbours (interior padding), from dst offset at and the input block at
// src: above the innermost level the blocks in one call of blocks, which
// hands them to the kernels as rows, planes or cubes a gap apart, then the
// gaps in one call of fills; at the innermost level one call of dilate.
func (x *executor[K]) dilate(l, n, at, src, gap int) {
	blk, stride := x.levels[l].blk, x.strides[l]
	if l < len(x.levels)-1 {
		x.blocks(l, n, at, (gap+1)*blk, src, stride)
		if n > 1 && gap > 0 {
			x.k.fills(at+blk, gap*blk, n-1, (gap+1)*blk)
		}
		return
	}
	x.k.dilate(at, src, n, gap, blk, stride)
}

// runBlocks makes the top-level blocks [lo, hi) that fills and input
// reads make; the copies of finished output are left to runCopies.
func (x *executor[K]) runBlocks(lo, hi int) {
	lv, segs := &x.levels[0], x.segs(0)
	for i := range segs {
		s := segs[i]
		switch s.kind {
		case segFill, segSrc:
			a, b := max(s.at, lo), min(s.at+s.n, hi)
			if a >= b {
				continue
			}
			s.src += (a - s.at) * s.step
			s.at, s.n = a, b-a
			x.segment(0, 0, 0, &s)
		case segDilate:
			blk, period := lv.blk, s.step+1
			for t := 0; t < s.n; t++ {
				p := s.at + t*period // the element's block; value blocks follow it
				if p >= hi {
					break
				}
				if p >= lo {
					x.blocks(0, 1, p*blk, blk, (s.src+t)*x.strides[0], x.strides[0])
				}
				if a, b := max(p+1, lo), min(p+period, hi); t < s.n-1 && a < b {
					x.k.fill(a*blk, (b-a)*blk)
				}
			}
		}
	}
}

// runCopies makes the top-level segments that copy finished output.
func (x *executor[K]) runCopies() {
	segs := x.segs(0)
	for i := range segs {
		if s := &segs[i]; s.kind == segDup || s.kind == segRepeat {
			x.segment(0, 0, 0, s)
		}
	}
}

// repeat sets dst[off+t] = dst[off+t-period] for t in [0, n), from the
// written period before off (period > 0) or, with dst[off+t] =
// dst[off+t+|period|], from the one after off+n (period < 0).
func repeat[C interface {
	copyDst(off, from, count, width, step int)
}](c C, off, n, period int) {
	if period > 0 {
		// Each copy reads the longest written run in phase, so the copies
		// double in length.
		from := off - period
		for done := 0; done < n; {
			src := from + done%period
			m := min(n-done, off+done-src)
			c.copyDst(off+done, src, 1, m, m)
			done += m
		}
		return
	}
	period = -period
	end := off + n
	for done := 0; done < n; {
		shift := period + done - done%period // a multiple of the period, <= what is written
		m := min(n-done, shift)
		to := end - done - m
		c.copyDst(to, to+shift, 1, m, m)
		done += m
	}
}
