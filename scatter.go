package pad

// Interior padding by scatter: one fill of the value over the whole
// output, then the input's innermost rows written where they land, each
// by one loop of word stores (dilateWords, dilatePairs) or one copy. The
// executor makes a dilated plane a segment at a time, a kernel call or two
// per output row, and a dilated row in Go where no kernel takes it; that
// per-row cost was most of the time of dilated planes at the Go level and
// on arm64 (uint8 [1, 27, 9, 9] dilated by 1 and padded by 2: 84x
// memmove), and of planes cropped on a dilated axis at every level, which
// no plane table takes (PERFORMANCE.md, "Interior padding by scatter").

// scatterPolicy says which runs take scatter: scatterByRule (scatters), or
// for the tests scatterNever or scatterAlways (where scatters allows it).
var scatterPolicy = scatterByRule

const (
	scatterByRule = iota
	scatterNever
	scatterAlways
)

// scatterDenseRowsMax is the widest row, in bytes, of a table of dilated
// rows (denseRows) that scatter takes rather than the expand kernel a row
// at a time, which leaves what comes before a row's first line, and rows
// it declines, to expandGo, a byte at a time. In a survey of cropped
// planes, rows of 86 to 366 bytes took 0.11-0.68x the time by scatter,
// rows of 981 and 1720 bytes 1.7 and 1.2x.
const scatterDenseRowsMax = 512

// scatterCopyRowsMax is the widest row, in bytes, that scatter makes, as
// one copy over the fill, where only outer axes dilate: at the Go level,
// float32 rows of 392 and 520 bytes took 0.65 and 0.67x the executor's
// time, of 808 and 1032 bytes 0.83 and 0.84x, 2056 bytes 1.02x (n.s.)
// and 8200 bytes 1.26x.
const scatterCopyRowsMax = 2048

// scatters reports whether a run of these kernels makes the output of
// levels by scatter: a run of dense input on one goroutine, not streamed,
// that dilates an axis. Where the innermost level dilates (rows the
// executor makes slowly), if the level in use has no kernel for its
// planes or rows: no table of interior padding of its planes or of the
// whole output (dense), no plane table, no shuffle table of its rows
// (generalRows), and no table of its rows (denseRows) as wide as
// scatterDenseRowsMax. Where only outer axes dilate, if the level has no
// kernel for tables of interior padding, for rows narrower than
// scatterCopyRowsMax. At the Go level and on arm64 the first is every
// such run.
func (k *byteKernels) scatters(levels []level, workers int) bool {
	last := &levels[len(levels)-1]
	rows := dilates(last)
	switch {
	case scatterPolicy == scatterNever || workers > 1 || k.stream || !k.dense || !rows && !dilatesAny(levels):
		return false
	case scatterPolicy == scatterAlways:
		return true
	case !rows:
		return !interiorKernelsInUse() && last.outLen*last.blk*k.size < scatterCopyRowsMax
	case k.denseTakes(k.tab.dense) || planeTablesTake(k.tab):
		return false
	case k.denseTakes(k.tab.denseRows):
		return k.tab.denseRows.plane < scatterDenseRowsMax
	}
	return !generalRowsTake(k.tab, k.stream)
}

// dilatesAny reports whether a level of levels dilates.
func dilatesAny(levels []level) bool {
	for i := range levels {
		if dilates(&levels[i]) {
			return true
		}
	}
	return false
}

// dilates reports whether lv has a segment of interior padding.
func dilates(lv *level) bool {
	for _, s := range lv.segs {
		if s.kind == segDilate {
			return true
		}
	}
	return false
}

// dataSegment returns the segment of a level of constant padding that
// reads the input (segSrc or segDilate), with the value blocks between
// its elements in step (0 for segSrc), if the level has one.
func dataSegment(lv *level) (segment, bool) {
	for _, s := range lv.segs {
		switch s.kind {
		case segSrc:
			s.step = 0
			return s, true
		case segDilate:
			return s, true
		}
	}
	return segment{}, false
}

// scatter makes the output of levels (constant padding, dense input;
// scatters) by one fill of the value, then each innermost row of input
// blocks written over it.
func (k *byteKernels) scatter(levels []level, strides []int) {
	k.fill(0, len(k.dst)/k.size)
	last := len(levels) - 1
	s, ok := dataSegment(&levels[last])
	if !ok {
		return // every row cropped away
	}
	r := k.scatterRowOf(s, levels[last].blk, strides[last])
	if last == 0 {
		k.scatterRows(&r, 1, 0, 0, 0, 0)
		return
	}
	k.scatterLevel(levels, strides, &r, 0, 0, 0)
}

// scatterLevel writes the input rows of the sub-tensor of level l at dst
// element off from the input at srcOff, the level above the innermost
// in one call of scatterRows.
func (k *byteKernels) scatterLevel(levels []level, strides []int, r *scatterRow, l, off, srcOff int) {
	lv := &levels[l]
	s, ok := dataSegment(lv)
	if !ok {
		return
	}
	at, src, step := off+s.at*lv.blk, srcOff+s.src*strides[l], (s.step+1)*lv.blk
	if l == len(levels)-2 {
		k.scatterRows(r, s.n, at, step, src, strides[l])
		return
	}
	for range s.n {
		k.scatterLevel(levels, strides, r, l+1, at, src)
		at += step
		src += strides[l]
	}
}

// scatterRow is how scatter writes a row of the innermost level: the n
// input blocks of b bytes, srcStep bytes apart, from srcAt bytes into the
// input row, to dstAt bytes into the output row, gap value blocks apart.
type scatterRow struct {
	how          scatterHow
	dstAt, srcAt int
	dstLen       int // bytes from the first block's to the last block's end
	srcLen       int
	n, gap, b    int
	srcStep      int
}

type scatterHow uint8

const (
	scatterCopy  scatterHow = iota // blocks that follow each other in dst and src: one copy
	scatterEach                    // blocks over 32 bytes: a copy each
	scatterWords                   // blocks of up to 32 bytes: a word or two each (dilateRows)
)

// scatterRowOf returns how scatter writes the rows of the innermost
// level's input segment s, blocks of blk elements stride apart in src.
func (k *byteKernels) scatterRowOf(s segment, blk, stride int) scatterRow {
	size := k.size
	b := blk * size
	r := scatterRow{dstAt: s.at * b, srcAt: s.src * stride * size, n: s.n, gap: s.step, b: b, srcStep: stride * size}
	r.dstLen = ((s.n-1)*(s.step+1) + 1) * b
	r.srcLen = (s.n-1)*r.srcStep + b
	switch {
	case s.step == 0 && stride == blk:
		r.how = scatterCopy
	case b > 32:
		r.how = scatterEach
	default:
		r.how = scatterWords
	}
	return r
}

// scatterRows writes count rows r, row t from the input row at element
// src+t*srcStep to the output row at element at+t*dstStep.
func (k *byteKernels) scatterRows(r *scatterRow, count, at, dstStep, src, srcStep int) {
	size := k.size
	do, so := at*size+r.dstAt, src*size+r.srcAt
	if r.how == scatterWords {
		dilateRows(k.dst[do:], k.src[so:], count, dstStep*size, srcStep*size, r.b, r.n, r.gap, r.srcStep, &k.pat, true)
		return
	}
	for range count {
		d, s := k.dst[do:do+r.dstLen], k.src[so:so+r.srcLen]
		if r.how == scatterCopy {
			copy(d, s)
		} else {
			for t := range r.n {
				o := t * (r.gap + 1) * r.b
				copy(d[o:o+r.b], s[t*r.srcStep:])
			}
		}
		do += dstStep * size
		so += srcStep * size
	}
}
