package pad

// The executor walks the levels of a compiled plan and hands the kernels
// whole runs: a fill of many blocks, a copy of a run of input, a copy of
// finished output, a block of rows padded alike. Offsets and counts are in
// elements.

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
	// rows makes count rows of the innermost level whose program has the
	// form r, row t at dst[off+t*dstStride:] from src[srcOff+t*srcStride:],
	// or reports false to have the executor make them one by one.
	rows(r *rowForm, count, off, dstStride, srcOff, srcStride int) bool
}

// execute runs the levels of a plan with the given input strides.
func execute[K kernels](k K, levels []level, strides []int) {
	x := executor[K]{k: k, levels: levels, strides: strides}
	x.run(0, 0, 0)
}

type executor[K kernels] struct {
	k       K
	levels  []level
	strides []int
}

// run makes the output sub-tensor of level l at dst offset off from the
// input sub-tensor at src offset srcOff.
func (x *executor[K]) run(l, off, srcOff int) {
	lv := &x.levels[l]
	blk, stride := lv.blk, x.strides[l]
	innermost := l == len(x.levels)-1
	for i := range lv.segs {
		s := &lv.segs[i]
		at := off + s.at*blk
		switch s.kind {
		case segFill:
			x.k.fill(at, s.n*blk)
		case segSrc:
			src := srcOff + s.src*stride
			if innermost {
				x.k.copySrc(at, src, s.n, blk, s.step*stride)
				continue
			}
			if next := &x.levels[l+1]; next.row.kind != rowGeneral && s.step > 0 && l+2 == len(x.levels) &&
				x.k.rows(&next.row, s.n, at, blk, src+next.row.src*x.strides[l+1], stride) {
				continue
			}
			for t := 0; t < s.n; t++ {
				x.run(l+1, at+t*blk, src+t*s.step*stride)
			}
		case segDilate:
			src, gap := srcOff+s.src*stride, s.step*blk
			for t := 0; t < s.n; t++ {
				if t > 0 {
					x.k.fill(at, gap)
					at += gap
				}
				if innermost {
					x.k.copySrc(at, src, 1, blk, stride)
				} else {
					x.run(l+1, at, src)
				}
				at += blk
				src += stride
			}
		case segDup:
			x.k.copyDst(at, off+s.src*blk, s.n, blk, s.step*blk)
		case segRepeat:
			if s.step > 0 {
				x.repeatForward(at, s.n*blk, s.step*blk)
			} else {
				x.repeatBackward(at, s.n*blk, -s.step*blk)
			}
		}
	}
}

// repeatForward sets dst[off+t] = dst[off+t-period] for t in [0, n), the
// period before off being written. Each copy reads the longest written run
// in phase, so the copies double in length.
func (x *executor[K]) repeatForward(off, n, period int) {
	from := off - period
	for done := 0; done < n; {
		src := from + done%period
		c := min(n-done, off+done-src)
		x.k.copyDst(off+done, src, 1, c, c)
		done += c
	}
}

// repeatBackward sets dst[off+t] = dst[off+t+period] for t in [0, n), the
// period after off+n being written, working from the end.
func (x *executor[K]) repeatBackward(off, n, period int) {
	end := off + n
	for done := 0; done < n; {
		shift := period + done - done%period // a multiple of the period, <= what is written
		c := min(n-done, shift)
		to := end - done - c
		x.k.copyDst(to, to+shift, 1, c, c)
		done += c
	}
}
