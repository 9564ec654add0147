package pad

// Randomized comparison of the package against refPad (reference_test.go), the strided
// path against the contiguous one, and FuzzPad. Everything is seeded: a failure prints the
// case and reproduces on the next run.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"testing"
)

// rtPair is a 16-byte element type.
type rtPair struct{ A, B uint64 }

type rtCase struct {
	shape []int
	spec  Spec
}

func (c rtCase) String() string {
	return fmt.Sprintf("shape=%v Spec{Mode: %d, Order: %d, Before: %v, After: %v, Interior: %v}",
		c.shape, uint8(c.spec.Mode), uint8(c.spec.Order), c.spec.Before, c.spec.After, c.spec.Interior)
}

func rtClone(s []int) []int {
	if s == nil {
		return nil
	}
	return append([]int{}, s...)
}

func (c rtCase) clone() rtCase {
	return rtCase{shape: rtClone(c.shape), spec: Spec{Mode: c.spec.Mode, Order: c.spec.Order,
		Before: rtClone(c.spec.Before), After: rtClone(c.spec.After), Interior: rtClone(c.spec.Interior)}}
}

// rtSmallProduct is the product of dims clamped at 0 (for negative dims), or -1 when it is
// larger than limit.
func rtSmallProduct(dims []int, limit int) int {
	p := 1
	for _, d := range dims {
		if d <= 0 {
			return 0
		}
	}
	for _, d := range dims {
		if d > limit || p > limit/d {
			return -1
		}
		p *= d
	}
	return p
}

// rtCatch runs f and turns a panic into a reported value.
func rtCatch(f func() error) (err error, panicked any) {
	defer func() {
		if v := recover(); v != nil {
			panicked = v
		}
	}()
	return f(), nil
}

func rtSameErr(got, want error) bool {
	if want == nil || got == nil {
		return got == nil && want == nil
	}
	return errors.Is(got, refSentinel(want))
}

var rtInnerSizes = []int{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 70}

// rtGenShape picks a rank 0..6 and dims with at most ~3000 input elements.
func rtGenShape(r *rand.Rand) []int {
	var rank int
	switch x := r.IntN(100); {
	case x < 5:
		rank = 0
	case x < 25:
		rank = 1
	case x < 50:
		rank = 2
	case x < 70:
		rank = 3
	case x < 85:
		rank = 4
	case x < 93:
		rank = 5
	default:
		rank = 6
	}
	shape := make([]int, rank)
	for i := range shape {
		if i == rank-1 {
			switch r.IntN(4) {
			case 0:
				shape[i] = r.IntN(8)
			case 1:
				shape[i] = r.IntN(71)
			default:
				shape[i] = rtInnerSizes[r.IntN(len(rtInnerSizes))]
			}
			continue
		}
		maxD := 5
		if rank >= 5 {
			maxD = 3
		}
		shape[i] = 1 + r.IntN(maxD)
		if r.IntN(25) == 0 {
			shape[i] = 0
		}
	}
	for rtSmallProduct(shape, 3000) < 0 {
		big := 0
		for i := range shape {
			if shape[i] > shape[big] {
				big = i
			}
		}
		shape[big] /= 2
	}
	return shape
}

// rtGenPad picks one pad for an axis of length d: zero, small, several periods, crops of
// the whole axis or more.
func rtGenPad(r *rand.Rand, d int) int {
	switch r.IntN(12) {
	case 0, 1, 2, 3:
		return 0
	case 4, 5:
		return 1 + r.IntN(3)
	case 6, 7:
		return -(1 + r.IntN(3))
	case 8:
		return d + 1 + r.IntN(3*d+4)
	case 9:
		return -(d + r.IntN(3))
	case 10:
		return -d + r.IntN(2)
	default:
		return r.IntN(2*d+2) - d
	}
}

const rtMaxOut = 20000

// rtGenSpec fills a random spec for shape (maybe invalid).
func rtGenSpec(r *rand.Rand, shape []int, mode Mode) Spec {
	rank := len(shape)
	s := Spec{Mode: mode, Order: Order(r.IntN(2)), Before: make([]int, rank), After: make([]int, rank)}
	if rank == 0 && r.IntN(2) == 0 {
		s.Before, s.After = nil, nil
	}
	for i, d := range shape {
		s.Before[i] = rtGenPad(r, d)
		s.After[i] = rtGenPad(r, d)
	}
	if mode == Constant && rank > 0 && r.IntN(10) < 3 {
		s.Interior = make([]int, rank)
		for i := range s.Interior {
			if r.IntN(2) == 0 {
				s.Interior[i] = r.IntN(4)
			}
		}
	}
	return s
}

// rtFit shrinks pads until the output has at most rtMaxOut elements.
func rtFit(r *rand.Rand, c *rtCase) bool {
	for try := 0; try < 40; try++ {
		out, err := refCheck(c.shape, c.spec)
		if err != nil {
			return false
		}
		if n := rtSmallProduct(out, rtMaxOut); n >= 0 {
			return true
		}
		big := 0
		for i := range out {
			if out[i] > out[big] {
				big = i
			}
		}
		if c.spec.Before[big] > 0 {
			c.spec.Before[big] = r.IntN(c.spec.Before[big])
		}
		if c.spec.After[big] > 0 {
			c.spec.After[big] = r.IntN(c.spec.After[big])
		}
		if c.spec.Interior != nil && c.spec.Interior[big] > 0 {
			c.spec.Interior[big]--
		}
		if out[big] > 1 && c.spec.Before[big] <= 0 && c.spec.After[big] <= 0 &&
			(c.spec.Interior == nil || c.spec.Interior[big] == 0) && c.shape[big] > 1 {
			c.shape[big] /= 2
		}
	}
	return false
}

// rtGenValid returns a valid case with a bounded output.
func rtGenValid(r *rand.Rand) rtCase {
	for {
		shape := rtGenShape(r)
		c := rtCase{shape: shape, spec: rtGenSpec(r, shape, Mode(r.IntN(5)))}
		if rtFit(r, &c) {
			return c
		}
	}
}

// rtGenValidFor returns a valid spec for a fixed shape and mode.
func rtGenValidFor(r *rand.Rand, shape []int, mode Mode) Spec {
	for try := 0; try < 50; try++ {
		c := rtCase{shape: rtClone(shape), spec: rtGenSpec(r, shape, mode)}
		if rtFit(r, &c) && slices.Equal(c.shape, shape) {
			return c.spec
		}
	}
	z := make([]int, len(shape))
	return Spec{Mode: mode, Before: z, After: z}
}

// Run-time mutations of a case (after spec mutations).
const (
	rtMutNone = iota
	rtMutDst
	rtMutSrc
	rtMutValue
)

// rtMutateSpec breaks a valid case in one realistic way; the reference decides the result.
func rtMutateSpec(r *rand.Rand, c *rtCase) string {
	rank := len(c.shape)
	ax := 0
	if rank > 0 {
		ax = r.IntN(rank)
	}
	switch k := r.IntN(11); {
	case k == 0 && rank > 0:
		if c.spec.Interior == nil {
			c.spec.Interior = make([]int, rank)
		}
		c.spec.Interior[ax] = -1 - r.IntN(3)
		return "negative interior"
	case k == 1 && rank > 0:
		c.spec.Mode = Mode(1 + r.IntN(4))
		c.spec.Interior = make([]int, rank)
		c.spec.Interior[ax] = 1 + r.IntN(2)
		return "interior in non-constant mode"
	case k == 2 && rank > 0:
		c.spec.Mode = Mode(1 + r.IntN(4))
		c.spec.Interior = nil
		c.spec.Order = CropThenPad
		c.spec.Before[ax] = -(c.shape[ax] + 1 + r.IntN(3))
		c.spec.After[ax] = c.shape[ax] + 2 + r.IntN(3)
		return "crop-then-pad window < 0"
	case k == 3 && rank > 0:
		c.spec.Mode = Mode(1 + r.IntN(4))
		c.spec.Interior = nil
		c.shape[ax] = 0
		if r.IntN(2) == 0 {
			c.spec.Before[ax] = 1 + r.IntN(3)
		} else {
			c.spec.After[ax] = 1 + r.IntN(3)
		}
		return "positive pad of empty axis"
	case k == 4:
		if r.IntN(2) == 0 {
			c.spec.Before = append(c.spec.Before, 0)
		} else if rank > 0 {
			c.spec.After = c.spec.After[:rank-1]
		} else {
			c.spec.After = []int{1}
		}
		return "pads length"
	case k == 5:
		c.spec.Interior = make([]int, rank+1+r.IntN(2))
		if rank > 1 && r.IntN(2) == 0 {
			c.spec.Interior = make([]int, rank-1)
		}
		return "interior length"
	case k == 6:
		c.spec.Mode = Mode(5 + r.IntN(251))
		return "unknown mode"
	case k == 7:
		c.spec.Order = Order(2 + r.IntN(254))
		return "unknown order"
	case k == 8 && rank > 0:
		c.shape[ax] = -1 - r.IntN(5)
		return "negative dim"
	case k == 9 && rank > 0:
		c.spec.Mode = Constant
		c.spec.Interior = nil
		c.spec.Before[ax] = -(c.shape[ax] + c.spec.After[ax] + 1 + r.IntN(3))
		return "negative output length"
	default:
		if rank > 0 {
			c.spec.Before[ax] = rtGenPad(r, c.shape[ax])
			c.spec.After[ax] = -rtGenPad(r, c.shape[ax])
		}
		return "random pads"
	}
}

type rtStats struct {
	cases, valid, specErr, runErr int
}

// rtChecker accumulates failures and stops the test after too many.
type rtChecker struct {
	t        *testing.T
	fails    int
	outElems int // output elements of the valid plans checked
}

func (k *rtChecker) errorf(format string, args ...any) {
	k.t.Helper()
	k.fails++
	k.t.Errorf(format, args...)
	if k.fails >= 25 {
		k.t.Fatalf("too many failures")
	}
}

// checkPlan compares Spec.OutShape and NewPlan with the reference and returns the plan.
func (k *rtChecker) checkPlan(c rtCase, tag string) (*Plan, []int, error) {
	k.t.Helper()
	wantSh, wantErr := refCheck(c.shape, c.spec)
	var gotSh []int
	err, pv := rtCatch(func() error {
		var e error
		gotSh, e = c.spec.OutShape(c.shape)
		return e
	})
	if pv != nil {
		k.errorf("%s: %v: Spec.OutShape panicked: %v", tag, c, pv)
	} else if !rtSameErr(err, wantErr) {
		k.errorf("%s: %v: Spec.OutShape err %v, want %v", tag, c, err, wantErr)
	} else if err == nil && !slices.Equal(gotSh, wantSh) {
		k.errorf("%s: %v: Spec.OutShape %v, want %v", tag, c, gotSh, wantSh)
	}
	var p *Plan
	err, pv = rtCatch(func() error {
		var e error
		p, e = NewPlan(c.shape, c.spec)
		return e
	})
	if pv != nil {
		k.errorf("%s: %v: NewPlan panicked: %v", tag, c, pv)
		return nil, wantSh, wantErr
	}
	if !rtSameErr(err, wantErr) {
		k.errorf("%s: %v: NewPlan err %v, want %v", tag, c, err, wantErr)
		return nil, wantSh, wantErr
	}
	if err != nil {
		if p != nil {
			k.errorf("%s: %v: NewPlan returned a plan with error %v", tag, c, err)
		}
		return nil, wantSh, wantErr
	}
	if p == nil {
		k.errorf("%s: %v: NewPlan returned nil plan and nil error", tag, c)
		return nil, wantSh, wantErr
	}
	if n := rtSmallProduct(wantSh, rtMaxOut); n > 0 {
		k.outElems += n
	}
	if !slices.Equal(p.InShape(), c.shape) || !slices.Equal(p.OutShape(), wantSh) {
		k.errorf("%s: %v: plan shapes %v -> %v, want %v -> %v", tag, c, p.InShape(), p.OutShape(), c.shape, wantSh)
	}
	return p, wantSh, nil
}

// rtFillBytes fills b with random bytes.
func rtFillBytes(r *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(r.Uint32())
	}
}

// runBytes compares Plan.RunBytes with refPad on raw bytes of elemSize es.
func (k *rtChecker) runBytes(r *rand.Rand, c rtCase, es, mut int) {
	tag := fmt.Sprintf("RunBytes es=%d mut=%d", es, mut)
	p, wantSh, planErr := k.checkPlan(c, tag)
	if planErr != nil {
		return
	}
	inN := rtSmallProduct(c.shape, math.MaxInt)
	outN := rtSmallProduct(wantSh, math.MaxInt)
	src := make([]byte, inN*es)
	rtFillBytes(r, src)
	value := make([]byte, es)
	rtFillBytes(r, value)
	value[0] |= 1
	if r.IntN(8) == 0 {
		value = nil // zero value
	}
	dstLen := outN * es
	switch mut {
	case rtMutDst:
		if dstLen > 0 && r.IntN(2) == 0 {
			dstLen -= 1 + r.IntN(dstLen)
		} else {
			dstLen += 1 + r.IntN(2*es)
		}
	case rtMutSrc:
		if len(src) > 0 && r.IntN(2) == 0 {
			src = src[:r.IntN(len(src))]
		} else {
			src = append(src, make([]byte, 1+r.IntN(es))...)
		}
	case rtMutValue:
		value = make([]byte, es+1+r.IntN(3))
		if es > 1 && r.IntN(2) == 0 {
			value = value[:1+r.IntN(es-1)]
		}
	}
	want, gotWantSh, wantErr := refPad(src, es, c.shape, c.spec, value)
	if wantErr == nil && dstLen != len(want) {
		wantErr = ErrShapeMismatch
	}
	if wantErr == nil && !slices.Equal(gotWantSh, wantSh) {
		k.errorf("%s: %v: reference shapes disagree %v %v", tag, c, gotWantSh, wantSh)
	}
	dst := make([]byte, dstLen)
	rtFillBytes(r, dst)
	orig := append([]byte{}, dst...)
	k.checkRun(tag, c, func() error { return p.RunBytes(dst, src, es, value) }, dst, orig, want, wantErr, func() string {
		return fmt.Sprintf("value=%x:\n got %v\nwant %v", value, rtHead(dst), rtHead(want))
	})
}

// checkRun checks a run into dst (orig before it) against the reference's
// want and wantErr: no panic, the same sentinel, dst untouched on an error,
// want otherwise (detail describes a difference).
func (k *rtChecker) checkRun(tag string, c rtCase, run func() error, dst, orig, want []byte, wantErr error, detail func() string) {
	err, pv := rtCatch(run)
	switch {
	case pv != nil:
		k.errorf("%s: %v: panicked: %v", tag, c, pv)
	case !rtSameErr(err, wantErr):
		k.errorf("%s: %v: err %v, want %v", tag, c, err, wantErr)
	case err != nil:
		if !bytes.Equal(dst, orig) {
			k.errorf("%s: %v: dst modified on error %v", tag, c, err)
		}
	case !bytes.Equal(dst, want):
		k.errorf("%s: %v %s", tag, c, detail())
	}
}

func rtHead(b []byte) string {
	if len(b) > 256 {
		return fmt.Sprintf("%v... (%d bytes)", b[:256], len(b))
	}
	return fmt.Sprint(b)
}

// runPacked compares Plan.RunPacked with refPad on unpacked elements.
func (k *rtChecker) runPacked(r *rand.Rand, c rtCase, bits, mut int) {
	tag := fmt.Sprintf("RunPacked bits=%d mut=%d", bits, mut)
	p, wantSh, planErr := k.checkPlan(c, tag)
	if planErr != nil {
		return
	}
	inN := rtSmallProduct(c.shape, math.MaxInt)
	outN := rtSmallProduct(wantSh, math.MaxInt)
	elems := make([]byte, inN)
	for i := range elems {
		elems[i] = byte(r.IntN(1 << bits))
	}
	src := packBits(elems, bits)
	if used := inN * bits % 8; used != 0 { // garbage in the unused bits, which must be ignored
		src[len(src)-1] |= byte(r.IntN(256)) &^ (1<<used - 1)
	}
	value := uint8(1 + r.IntN(1<<bits-1))
	dstLen := (outN*bits + 7) / 8
	wantErr := error(nil)
	switch mut {
	case rtMutDst:
		if dstLen > 0 && r.IntN(2) == 0 {
			dstLen--
		} else {
			dstLen++
		}
		wantErr = ErrShapeMismatch
	case rtMutSrc:
		if len(src) > 0 && r.IntN(2) == 0 {
			src = src[:len(src)-1]
		} else {
			src = append(src, 0)
		}
		wantErr = ErrShapeMismatch
	case rtMutValue:
		value = uint8(1<<bits + r.IntN(256-1<<bits))
		wantErr = ErrInvalidSpec
	}
	var want []byte
	if wantErr == nil {
		out, sh, err := refPad(elems, 1, c.shape, c.spec, []byte{value})
		if err != nil || !slices.Equal(sh, wantSh) {
			k.errorf("%s: %v: reference failed: %v %v", tag, c, err, sh)
			return
		}
		want = packBits(out, bits)
	}
	dst := bytes.Repeat([]byte{0xFF}, dstLen)
	orig := append([]byte{}, dst...)
	k.checkRun(tag, c, func() error { return p.RunPacked(dst, src, bits, value) }, dst, orig, want, wantErr, func() string {
		return fmt.Sprintf("value=%d src=%x:\n got %x\nwant %x", value, src, dst, want)
	})
}

const rtValueIdx = math.MaxUint32

// rtExpectIdx computes the expected typed output by running refPad on element indices.
func rtExpectIdx[T any](c rtCase, src []T, value T) ([]T, []int, error) {
	idx := make([]byte, 4*len(src))
	for i := range src {
		binary.LittleEndian.PutUint32(idx[4*i:], uint32(i))
	}
	v := make([]byte, 4)
	binary.LittleEndian.PutUint32(v, rtValueIdx)
	outIdx, sh, err := refPad(idx, 4, c.shape, c.spec, v)
	if err != nil {
		return nil, nil, err
	}
	out := make([]T, len(outIdx)/4)
	for j := range out {
		x := binary.LittleEndian.Uint32(outIdx[4*j:])
		if x == rtValueIdx {
			out[j] = value
		} else {
			out[j] = src[x]
		}
	}
	return out, sh, nil
}

// rtFirstDiff reports the first differing index for a failure message.
func rtFirstDiff[T any](a, b []T, eq func(x, y T) bool) string {
	if len(a) != len(b) {
		return fmt.Sprintf("len %d vs %d", len(a), len(b))
	}
	for i := range a {
		if !eq(a[i], b[i]) {
			return fmt.Sprintf("first difference at %d: got %v want %v", i, a[i], b[i])
		}
	}
	return "equal"
}

type rtGen[T any] struct {
	name string
	gen  func(r *rand.Rand) T
	eq   func(a, b T) bool
	zero func(v T) bool
}

// runTyped compares Run[T], Into[T] and Pad[T] with the reference.
func rtRunTyped[T any](k *rtChecker, r *rand.Rand, c rtCase, g rtGen[T], mut int) {
	tag := fmt.Sprintf("typed %s mut=%d", g.name, mut)
	p, wantSh, planErr := k.checkPlan(c, tag)
	gen := func(n int) []T {
		s := make([]T, n)
		for i := range s {
			s[i] = g.gen(r)
		}
		return s
	}
	value := g.gen(r)
	for g.zero(value) {
		value = g.gen(r)
	}
	if planErr != nil {
		// Pad and Into must report the same error and leave dst alone.
		n := rtSmallProduct(c.shape, 1<<16)
		if n < 0 {
			n = 0
		}
		src := gen(n)
		dst := gen(5)
		orig := append([]T{}, dst...)
		err, pv := rtCatch(func() error { return Into(dst, src, c.shape, c.spec, value) })
		if pv != nil || !rtSameErr(err, planErr) || !slices.EqualFunc(dst, orig, g.eq) {
			k.errorf("%s: %v: Into err %v panic %v (dst kept %v), want %v", tag, c, err, pv,
				slices.EqualFunc(dst, orig, g.eq), planErr)
		}
		err, pv = rtCatch(func() error { _, _, e := Pad(src, c.shape, c.spec, value); return e })
		if pv != nil || !rtSameErr(err, planErr) {
			k.errorf("%s: %v: Pad err %v panic %v, want %v", tag, c, err, pv, planErr)
		}
		return
	}
	inN := rtSmallProduct(c.shape, math.MaxInt)
	outN := rtSmallProduct(wantSh, math.MaxInt)
	src := gen(inN)
	want, sh, err := rtExpectIdx(c, src, value)
	if err != nil || !slices.Equal(sh, wantSh) {
		k.errorf("%s: %v: reference failed %v", tag, c, err)
		return
	}
	dstLen, srcUse := outN, src
	wantErr := error(nil)
	switch mut {
	case rtMutDst:
		if dstLen > 0 && r.IntN(2) == 0 {
			dstLen -= 1 + r.IntN(dstLen)
		} else {
			dstLen += 1 + r.IntN(3)
		}
		wantErr = ErrShapeMismatch
	case rtMutSrc, rtMutValue:
		if inN > 0 && r.IntN(2) == 0 {
			srcUse = src[:r.IntN(inN)]
		} else {
			srcUse = append(src[:inN:inN], gen(1+r.IntN(3))...)
		}
		wantErr = ErrShapeMismatch
	}
	check := func(what string, dst []T, f func() error) {
		orig := append([]T{}, dst...)
		err, pv := rtCatch(f)
		switch {
		case pv != nil:
			k.errorf("%s %s: %v: panicked: %v", tag, what, c, pv)
		case !rtSameErr(err, wantErr):
			k.errorf("%s %s: %v: err %v, want %v", tag, what, c, err, wantErr)
		case err != nil:
			if !slices.EqualFunc(dst, orig, g.eq) {
				k.errorf("%s %s: %v: dst modified on error %v", tag, what, c, err)
			}
		case !slices.EqualFunc(dst, want, g.eq):
			k.errorf("%s %s: %v: %s", tag, what, c, rtFirstDiff(dst, want, g.eq))
		}
	}
	dst := gen(dstLen)
	check("Run", dst, func() error { return Run(p, dst, srcUse, value) })
	dst2 := gen(dstLen)
	check("Into", dst2, func() error { return Into(dst2, srcUse, c.shape, c.spec, value) })
	if mut == rtMutDst {
		return
	}
	var out []T
	var outSh []int
	err, pv := rtCatch(func() error {
		var e error
		out, outSh, e = Pad(srcUse, c.shape, c.spec, value)
		return e
	})
	switch {
	case pv != nil:
		k.errorf("%s Pad: %v: panicked: %v", tag, c, pv)
	case !rtSameErr(err, wantErr):
		k.errorf("%s Pad: %v: err %v, want %v", tag, c, err, wantErr)
	case err == nil && (!slices.Equal(outSh, wantSh) || !slices.EqualFunc(out, want, g.eq)):
		k.errorf("%s Pad: %v: shape %v want %v; %s", tag, c, outSh, wantSh, rtFirstDiff(out, want, g.eq))
	}
}

// The typed element generators: random bits, non-zero pad values.
var (
	rtGenF32 = rtGen[float32]{"float32",
		func(r *rand.Rand) float32 { return math.Float32frombits(r.Uint32()) },
		func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) },
		func(v float32) bool { return math.Float32bits(v) == 0 }}
	rtGenU16 = rtGen[uint16]{"uint16",
		func(r *rand.Rand) uint16 { return uint16(r.Uint32()) },
		func(a, b uint16) bool { return a == b },
		func(v uint16) bool { return v == 0 }}
	rtGenC128 = rtGen[complex128]{"complex128",
		func(r *rand.Rand) complex128 {
			return complex(math.Float64frombits(r.Uint64()), math.Float64frombits(r.Uint64()))
		},
		func(a, b complex128) bool {
			return math.Float64bits(real(a)) == math.Float64bits(real(b)) &&
				math.Float64bits(imag(a)) == math.Float64bits(imag(b))
		},
		func(v complex128) bool { return math.Float64bits(real(v)) == 0 && math.Float64bits(imag(v)) == 0 }}
	rtGenPair = rtGen[rtPair]{"struct16",
		func(r *rand.Rand) rtPair { return rtPair{r.Uint64(), r.Uint64()} },
		func(a, b rtPair) bool { return a == b },
		func(v rtPair) bool { return v == rtPair{} }}
	rtGenF32x3 = rtGen[[3]float32]{"[3]float32",
		func(r *rand.Rand) [3]float32 {
			return [3]float32{math.Float32frombits(r.Uint32()), math.Float32frombits(r.Uint32()),
				math.Float32frombits(r.Uint32())}
		},
		func(a, b [3]float32) bool {
			for i := range a {
				if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
					return false
				}
			}
			return true
		},
		func(v [3]float32) bool {
			return math.Float32bits(v[0])|math.Float32bits(v[1])|math.Float32bits(v[2]) == 0
		}}
	rtGenString = rtGen[string]{"string",
		func(r *rand.Rand) string {
			if r.IntN(10) == 0 {
				return ""
			}
			return fmt.Sprintf("s%x", r.Uint64()>>r.IntN(60))
		},
		func(a, b string) bool { return a == b },
		func(v string) bool { return v == "" }}
	rtGenBool = rtGen[bool]{"bool",
		func(r *rand.Rand) bool { return r.IntN(2) == 1 },
		func(a, b bool) bool { return a == b },
		func(v bool) bool { return !v }}
	rtGenPtr = rtGen[*int]{"*int",
		func(r *rand.Rand) *int { v := r.Int(); return &v },
		func(a, b *int) bool { return a == b },
		func(v *int) bool { return v == nil }}
)

func rtCaseCount(full, short int) int {
	if testing.Short() {
		return short
	}
	return full
}

// TestRandomAgainstReference: randomized cases over all modes, orders, ranks 0..6,
// interior, negative and large pads, and every run path.
func TestRandomAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(0x5eed, 0xbad0+1))
	k := &rtChecker{t: t}
	n := rtCaseCount(20000, 1000)
	var st rtStats
	modes := make([]int, 5)
	defer func(saved int) { gatherMaxOut = saved }(gatherMaxOut)
	defer func(out, traffic, rep, dir int) {
		streamMinBytes, streamMinTraffic, repMinBytes, forcedCopyDirection = out, traffic, rep, dir
	}(streamMinBytes, streamMinTraffic, repMinBytes, forcedCopyDirection)
	gathering, outSaved, trafficSaved, repSaved := gatherMaxOut, streamMinBytes, streamMinTraffic, repMinBytes
	for i := 0; i < n; i++ {
		// Odd cases send small outputs through the executor, even ones
		// through the gather table; of the odd ones, one in three runs as
		// the biggest outputs do (withStreaming), one in three as those
		// past the core's cache that do not stream (withInputProgram), and
		// one in three with REP MOVSB for every copy it may take
		// (withRepCopies) and the forward or the backward form of the
		// levels that have them, in turn (withCopyDirection).
		gatherMaxOut = gathering * (1 - i%2)
		streamMinBytes, streamMinTraffic, repMinBytes, forcedCopyDirection = outSaved, trafficSaved, repSaved, 0
		switch i % 6 {
		case 1:
			streamMinBytes, streamMinTraffic = 0, 0
		case 3:
			streamMinBytes, streamMinTraffic = 0, math.MaxInt
		case 5:
			repMinBytes, forcedCopyDirection = 1, 1-i/6%2*2
		}
		c := rtGenValid(r)
		mut := rtMutNone
		switch x := r.IntN(100); {
		case x < 10:
			rtMutateSpec(r, &c)
		case x < 14:
			mut = rtMutDst
		case x < 17:
			mut = rtMutSrc
		case x < 20:
			mut = rtMutValue
		}
		if _, err := refCheck(c.shape, c.spec); err != nil {
			st.specErr++
		} else if mut != rtMutNone {
			st.runErr++
		} else {
			st.valid++
		}
		if c.spec.Mode < 5 {
			modes[c.spec.Mode]++
		}
		st.cases++
		switch path := r.IntN(20); {
		case path < 7:
			es := []int{1, 2, 4, 8, 16, 3, 12}[r.IntN(7)]
			k.runBytes(r, c, es, mut)
		case path < 9:
			k.runPacked(r, c, []int{2, 4}[r.IntN(2)], mut)
		default:
			switch r.IntN(8) {
			case 0:
				rtRunTyped(k, r, c, rtGenF32, mut)
			case 1:
				rtRunTyped(k, r, c, rtGenU16, mut)
			case 2:
				rtRunTyped(k, r, c, rtGenC128, mut)
			case 3:
				rtRunTyped(k, r, c, rtGenPair, mut)
			case 4:
				rtRunTyped(k, r, c, rtGenF32x3, mut)
			case 5:
				rtRunTyped(k, r, c, rtGenString, mut)
			case 6:
				rtRunTyped(k, r, c, rtGenBool, mut)
			default:
				rtRunTyped(k, r, c, rtGenPtr, mut)
			}
		}
	}
	t.Logf("%d random cases: %d valid, %d spec errors, %d run-time argument errors; per mode %v; %d output elements",
		st.cases, st.valid, st.specErr, st.runErr, modes, k.outElems)
	if st.valid < st.cases*7/10 {
		t.Errorf("generator produced only %d valid cases of %d", st.valid, st.cases)
	}
}

// rtAllocBytes reports the bytes allocated by f.
func rtAllocBytes(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestRandomHugePads: pads far beyond any buffer. Outputs must be empty (with a zero-length
// axis) or rejected with ErrTooLarge, never allocated.
func TestRandomHugePads(t *testing.T) {
	r := rand.New(rand.NewPCG(99, 1<<40))
	k := &rtChecker{t: t}
	n := rtCaseCount(1000, 100)
	counts := map[string]int{}
	for i := 0; i < n; i++ {
		rank := 1 + r.IntN(4)
		shape := make([]int, rank)
		for j := range shape {
			shape[j] = 1 + r.IntN(4)
		}
		mode := Mode(r.IntN(5))
		s := Spec{Mode: mode, Order: Order(r.IntN(2)), Before: make([]int, rank), After: make([]int, rank)}
		huge := func() int { return 1<<(30+r.IntN(32)) + r.IntN(1000) } // 2^30 .. 2^61
		ax := r.IntN(rank)
		var kind string
		switch r.IntN(5) {
		case 0: // empty output: a zero-length axis elsewhere, huge pads here
			kind = "empty"
			if rank == 1 {
				shape, s.Before, s.After = append(shape, 0), append(s.Before, 0), append(s.After, 0)
				rank = 2
			} else {
				shape[(ax+1)%rank] = 0
			}
			s.Before[ax], s.After[ax] = huge(), r.IntN(3)*huge()
			if mode == Constant && r.IntN(2) == 0 { // a zero-length output axis from cropping
				z := (ax + 1) % rank
				shape[z] = 3
				s.Before[z], s.After[z] = -huge(), 0
				s.After[z] = -s.Before[z] - 3
			}
		case 1: // one axis overflows
			kind = "axis overflow"
			s.Before[ax] = math.MaxInt - r.IntN(4)
			s.After[ax] = r.IntN(2) * huge()
			if r.IntN(2) == 0 {
				s.Before[ax], s.After[ax] = s.After[ax], s.Before[ax]
			}
			if mode == Constant && r.IntN(3) == 0 {
				shape[ax] = 2 + r.IntN(3)
				s.Before[ax], s.After[ax] = 0, 0
				s.Interior = make([]int, rank)
				s.Interior[ax] = math.MaxInt/(shape[ax]-1) + r.IntN(3)
			}
		case 2: // the output product overflows
			kind = "product overflow"
			for j := range shape {
				s.Before[j] = 1<<(strconv.IntSize/2+r.IntN(10)) + r.IntN(9) // two overflow the product
			}
			if rank == 1 {
				shape = []int{hugeDim, hugeDim, hugeDim}
				s.Before, s.After = make([]int, 3), make([]int, 3)
			}
		case 3: // representable but too large to allocate
			kind = "too large"
			shape = []int{1 + r.IntN(3), 1 + r.IntN(3)}
			s.Before = []int{1<<24 + r.IntN(1<<24), r.IntN(5)}
			s.After = []int{r.IntN(5), 1<<24 + r.IntN(1<<24)}
			s.Interior = nil
		default: // cancelling extreme pads: small output
			kind = "cancelling"
			s.Mode = Constant
			s.Interior = nil
			x, y := r.IntN(3), r.IntN(shape[ax])
			s.Before[ax] = math.MinInt + x
			s.After[ax] = math.MaxInt - shape[ax] - x + 1 + y // output length y
			// Non-constant: valid in pad-then-crop, a window < 0 in crop-then-pad.
			if r.IntN(2) == 0 {
				s.Mode, s.Order = Mode(1+r.IntN(4)), Order(r.IntN(2))
			}
		}
		counts[kind]++
		c := rtCase{shape: shape, spec: s}
		tag := "huge " + kind
		p, wantSh, planErr := k.checkPlan(c, tag)
		var src []float32
		if m := rtSmallProduct(shape, 1<<20); m > 0 {
			src = make([]float32, m)
		}
		err, pv := rtCatch(func() error { _, _, e := Pad(src, shape, s, float32(1)); return e })
		if planErr != nil {
			if pv != nil || !rtSameErr(err, planErr) {
				k.errorf("%s: %v: Pad err %v panic %v, want %v", tag, c, err, pv, planErr)
			}
			continue
		}
		outN := refBigProduct(wantSh)
		switch {
		case outN.Sign() == 0:
			var out []complex128
			var outSh []int
			alloc := rtAllocBytes(func() {
				err, pv = rtCatch(func() error {
					var e error
					out, outSh, e = Pad(make([]complex128, len(src)), shape, s, complex(1, 2))
					return e
				})
			})
			if pv != nil || err != nil || len(out) != 0 || !slices.Equal(outSh, wantSh) {
				k.errorf("%s: %v: Pad = len %d shape %v err %v panic %v, want empty %v", tag, c, len(out), outSh, err, pv, wantSh)
			}
			if alloc > 1<<20 {
				k.errorf("%s: %v: empty output allocated %d bytes", tag, c, alloc)
			}
			srcB := make([]byte, 8*len(src))
			err, pv = rtCatch(func() error { return p.RunBytes(nil, srcB, 8, nil) })
			if pv != nil || err != nil {
				k.errorf("%s: %v: RunBytes on empty output: %v %v", tag, c, err, pv)
			}
			srcS := make([]string, len(src))
			err, pv = rtCatch(func() error { return Run(p, []string{}, srcS, "x") })
			if pv != nil || err != nil {
				k.errorf("%s: %v: Run on empty output: %v %v", tag, c, err, pv)
			}
		case outN.Cmp(refBig(rtMaxOut)) <= 0:
			want, sh, err2 := rtExpectIdx(c, src, float32(1))
			if err2 != nil {
				k.errorf("%s: %v: reference %v", tag, c, err2)
				continue
			}
			out, outSh, err := Pad(src, shape, s, float32(1))
			if err != nil || !slices.Equal(outSh, sh) || !slices.EqualFunc(out, want, rtGenF32.eq) {
				k.errorf("%s: %v: Pad = %v %v %v, want %v %v", tag, c, out, outSh, err, want, sh)
			}
		default:
			// Too big for memory: Pad of 1-byte and 16-byte elements must refuse without allocating.
			if outN.Cmp(big1Shl47) <= 0 {
				k.errorf("%s: %v: template produced %v elements", tag, c, outN)
				continue
			}
			var err8, err16 error
			alloc := rtAllocBytes(func() {
				err8, _ = rtCatch(func() error {
					_, _, e := Pad(make([]uint8, len(src)), shape, s, 1)
					return e
				})
				err16, _ = rtCatch(func() error {
					_, _, e := Pad(make([]complex128, len(src)), shape, s, 1)
					return e
				})
			})
			if !errors.Is(err8, ErrTooLarge) || !errors.Is(err16, ErrTooLarge) {
				k.errorf("%s: %v: Pad of %v elements: %v / %v, want ErrTooLarge", tag, c, outN, err8, err16)
			}
			if alloc > 1<<20 {
				k.errorf("%s: %v: refused output allocated %d bytes", tag, c, alloc)
			}
			if _, _, err := refPad(make([]byte, len(src)), 1, shape, s, nil); !errors.Is(err, ErrTooLarge) {
				k.errorf("%s: reference did not refuse: %v", tag, err)
			}
			dst := []float32{7, 7, 7}
			err, pv := rtCatch(func() error { return Run(p, dst, src, 1) })
			if pv != nil || !errors.Is(err, ErrShapeMismatch) || dst[0] != 7 {
				k.errorf("%s: %v: Run with short dst: %v %v %v", tag, c, err, pv, dst)
			}
			err, pv = rtCatch(func() error {
				return p.RunBytes(make([]byte, 4), make([]byte, len(src)<<20), 1<<20, nil)
			})
			if pv != nil || !errors.Is(err, ErrTooLarge) {
				k.errorf("%s: %v: RunBytes with elements*elemSize overflowing: %v %v", tag, c, err, pv)
			}
		}
	}
	t.Logf("huge-pad cases: %v", counts)
}

var big1Shl47 = refBig(refMaxBytes)

// rtView is a strided view of a backing buffer: element idx of the view is
// backing[start + sum idx[i]*strides[i]].
type rtView struct {
	kind           string
	shape, strides []int
	start, length  int
}

func rtGenView(r *rand.Rand) rtView {
	rank := r.IntN(5)
	base := make([]int, rank)
	for i := range base {
		base[i] = 1 + r.IntN(5)
		if i == rank-1 {
			base[i] = 1 + r.IntN(20)
		}
	}
	bs := make([]int, rank)
	st := 1
	for i := rank - 1; i >= 0; i-- {
		bs[i] = st
		st *= base[i]
	}
	v := rtView{shape: rtClone(base), strides: rtClone(bs), start: r.IntN(4)}
	transpose := func() {
		perm := r.Perm(len(v.shape))
		sh, sd := make([]int, len(perm)), make([]int, len(perm))
		for i, p := range perm {
			sh[i], sd[i] = v.shape[p], v.strides[p]
		}
		v.shape, v.strides = sh, sd
	}
	slice := func() {
		for i := range v.shape {
			step := 1 + r.IntN(3)
			first := r.IntN(v.shape[i])
			cnt := (v.shape[i]-first+step-1)/step - r.IntN(2)
			if cnt < 0 {
				cnt = 0
			}
			v.start += first * v.strides[i]
			v.shape[i] = cnt
			v.strides[i] *= step
		}
	}
	broadcast := func() {
		for i := range v.shape {
			if r.IntN(3) == 0 {
				v.shape[i], v.strides[i] = 1+r.IntN(4), 0
			}
		}
		if len(v.shape) < 6 && r.IntN(2) == 0 {
			at := r.IntN(len(v.shape) + 1)
			v.shape = append(v.shape[:at], append([]int{1 + r.IntN(3)}, v.shape[at:]...)...)
			v.strides = append(v.strides[:at], append([]int{0}, v.strides[at:]...)...)
		}
	}
	switch r.IntN(5) {
	case 0:
		v.kind = "contiguous"
	case 1:
		v.kind = "transposed"
		transpose()
	case 2:
		v.kind = "sliced"
		slice()
	case 3:
		v.kind = "broadcast"
		broadcast()
	default:
		v.kind = "sliced+transposed+broadcast"
		slice()
		transpose()
		broadcast()
	}
	maxOff := 0
	for i := range v.shape {
		if v.shape[i] > 0 {
			maxOff += (v.shape[i] - 1) * v.strides[i]
		}
	}
	v.length = v.start + maxOff + 1 + r.IntN(4)
	return v
}

// rtGather copies the view into a contiguous row-major tensor.
func rtGather[T any](v rtView, src []T) []T {
	n := rtSmallProduct(v.shape, math.MaxInt)
	out := make([]T, n)
	idx := make([]int, len(v.shape))
	for o := 0; o < n; o++ {
		rem, off := o, 0
		for i := len(v.shape) - 1; i >= 0; i-- {
			idx[i] = rem % v.shape[i]
			rem /= v.shape[i]
			off += idx[i] * v.strides[i]
		}
		out[o] = src[off]
	}
	return out
}

func rtRunStrided[T any](k *rtChecker, r *rand.Rand, v rtView, s Spec, g rtGen[T]) {
	backing := make([]T, v.length)
	for i := range backing {
		backing[i] = g.gen(r)
	}
	src := backing[v.start:]
	contig := rtGather(v, src)
	value := g.gen(r)
	for g.zero(value) {
		value = g.gen(r)
	}
	c := rtCase{shape: v.shape, spec: s}
	tag := fmt.Sprintf("RunStrided %s %s strides=%v", g.name, v.kind, v.strides)
	p, wantSh, err := k.checkPlan(c, tag)
	if err != nil {
		k.errorf("%s: %v: generator made an invalid spec: %v", tag, c, err)
		return
	}
	want, _, err := rtExpectIdx(c, contig, value)
	if err != nil {
		k.errorf("%s: %v: reference: %v", tag, c, err)
		return
	}
	outN := rtSmallProduct(wantSh, math.MaxInt)
	a, b := make([]T, outN), make([]T, outN)
	errA, pvA := rtCatch(func() error { return Run(p, a, contig, value) })
	errB, pvB := rtCatch(func() error { return RunStrided(p, b, src, v.strides, value) })
	if pvA != nil || pvB != nil || errA != nil || errB != nil {
		k.errorf("%s: %v: Run %v %v, RunStrided %v %v", tag, c, errA, pvA, errB, pvB)
		return
	}
	if !slices.EqualFunc(b, a, g.eq) {
		k.errorf("%s: %v: RunStrided differs from Run: %s", tag, c, rtFirstDiff(b, a, g.eq))
	}
	if !slices.EqualFunc(a, want, g.eq) {
		k.errorf("%s: %v: Run differs from reference: %s", tag, c, rtFirstDiff(a, want, g.eq))
	}
}

// TestRandomStridedViews: RunStrided over transposed, sliced and broadcast views must equal
// Run over the gathered contiguous tensor.
func TestRandomStridedViews(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 1415926))
	k := &rtChecker{t: t}
	n := rtCaseCount(5000, 300)
	kinds := map[string]int{}
	for i := 0; i < n; i++ {
		v := rtGenView(r)
		kinds[v.kind]++
		s := rtGenValidFor(r, v.shape, Mode(i%5))
		run := func() {
			switch i % 3 {
			case 0:
				rtRunStrided(k, r, v, s, rtGenF32)
			case 1:
				rtRunStrided(k, r, v, s, rtGenString)
			default:
				rtRunStrided(k, r, v, s, rtGenC128)
			}
		}
		switch i % 6 { // views as the biggest outputs run, as those past the cache, and by each form
		case 0:
			withStreaming(run)
		case 2:
			withInputProgram(run)
		case 3:
			withCopyDirection(1, run)
		case 5:
			withCopyDirection(-1, run)
		default:
			run()
		}
	}
	t.Logf("%d strided views: %v", n, kinds)
}

// rtFuzzReader hands out bytes, zeros once exhausted.
type rtFuzzReader struct {
	b []byte
	i int
}

func (f *rtFuzzReader) next() byte {
	if f.i >= len(f.b) {
		f.i++
		return 0
	}
	f.i++
	return f.b[f.i-1]
}

// rtFuzzDecode turns fuzz bytes into a case: rank<=4, small dims and pads.
// kind: 0..5 element sizes 1,2,4,8,16,3 through RunBytes, 6 packed 4-bit, 7 packed 2-bit.
func rtFuzzDecode(data []byte) (c rtCase, kind int, value []byte, src []byte) {
	f := &rtFuzzReader{b: data}
	rank := int(f.next() % 5)
	kind = int(f.next() % 8)
	m := f.next()
	mode := Mode(m % 5)
	if m >= 250 {
		mode = Mode(m) // unknown
	}
	o := f.next()
	order := Order(o % 2)
	if o == 255 {
		order = Order(7)
	}
	withInterior := f.next()%4 == 0
	c.shape = make([]int, rank)
	c.spec = Spec{Mode: mode, Order: order, Before: make([]int, rank), After: make([]int, rank)}
	if withInterior {
		c.spec.Interior = make([]int, rank)
	}
	for i := 0; i < rank; i++ {
		dmax := byte(7)
		if i == rank-1 {
			dmax = 40
		}
		c.shape[i] = int(f.next() % dmax)
		c.spec.Before[i] = int(int8(f.next())) % 13
		c.spec.After[i] = int(int8(f.next())) % 13
		if withInterior {
			x := f.next()
			c.spec.Interior[i] = int(x % 4)
			if x == 255 {
				c.spec.Interior[i] = -1
			}
		}
	}
	es := []int{1, 2, 4, 8, 16, 3, 1, 1}[kind]
	value = make([]byte, es)
	for i := range value {
		value[i] = f.next()
	}
	if kind >= 6 {
		value = value[:1]
	}
	rest := []byte{}
	if f.i < len(data) {
		rest = data[f.i:]
	}
	n := rtSmallProduct(c.shape, 1<<16)
	if n < 0 {
		n = 0
	}
	switch kind {
	case 6:
		n = (n*4 + 7) / 8
	case 7:
		n = (n*2 + 7) / 8
	default:
		n *= es
	}
	src = make([]byte, n)
	for i := range src {
		if len(rest) > 0 {
			src[i] = rest[i%len(rest)] + byte(i/len(rest))
		} else {
			src[i] = byte(i*7 + 1)
		}
	}
	return c, kind, value, src
}

func FuzzPad(f *testing.F) {
	f.Add([]byte{2, 0, 0, 0, 0, 3, 1, 255, 5, 2, 0, 2, 1, 3, 9, 9, 1, 2, 3})           // constant + interior
	f.Add([]byte{1, 1, 1, 0, 1, 7, 12, 12, 4, 5, 6, 7, 8, 9, 10})                      // reflect, several periods
	f.Add([]byte{2, 2, 2, 1, 1, 3, 254, 2, 6, 2, 250, 7, 7, 7, 7, 1, 2, 3})            // edge pad-then-crop
	f.Add([]byte{1, 3, 3, 0, 1, 4, 253, 3, 1, 2, 3, 4, 5, 6, 7, 8, 9})                 // wrap crop-then-pad
	f.Add([]byte{3, 4, 4, 1, 1, 2, 1, 1, 3, 0, 2, 5, 11, 255, 1, 2, 3, 4, 5, 6, 7, 8}) // symmetric
	f.Add([]byte{2, 6, 1, 0, 1, 3, 1, 0, 5, 2, 1, 9, 0xAB, 0xCD})                      // packed 4-bit
	f.Add([]byte{1, 7, 3, 1, 1, 9, 252, 8, 3, 0x1B, 0xE4})                             // packed 2-bit
	f.Add([]byte{0, 5, 1, 0, 1, 1, 2, 3, 4, 5, 6})                                     // rank 0, 3-byte elements
	f.Add([]byte{2, 0, 1, 0, 0, 0, 1, 0, 4, 3, 3, 1, 2})                               // empty axis, illegal interior
	f.Fuzz(func(t *testing.T, data []byte) {
		c, kind, value, src := rtFuzzDecode(data)
		wantSh, specErr := refCheck(c.shape, c.spec)
		if specErr == nil {
			es := []int{1, 2, 4, 8, 16, 3, 1, 1}[kind]
			if n := rtSmallProduct(wantSh, 1<<16); n < 0 || n*es > 1<<16 {
				return // output too large for a quick case
			}
		}
		err, pv := rtCatch(func() error { _, e := c.spec.OutShape(c.shape); return e })
		if pv != nil || !rtSameErr(err, specErr) {
			t.Fatalf("%v: Spec.OutShape err %v panic %v, want %v", c, err, pv, specErr)
		}
		var p *Plan
		err, pv = rtCatch(func() error {
			var e error
			p, e = NewPlan(c.shape, c.spec)
			return e
		})
		if pv != nil {
			t.Fatalf("%v: NewPlan panicked: %v", c, pv)
		}
		if !rtSameErr(err, specErr) {
			t.Fatalf("%v: NewPlan err %v, want %v", c, err, specErr)
		}
		if err != nil {
			return
		}
		outN := rtSmallProduct(wantSh, math.MaxInt)
		inN := rtSmallProduct(c.shape, math.MaxInt)
		var want, dst []byte
		if kind >= 6 {
			bits := 4
			if kind == 7 {
				bits = 2
			}
			value[0] &= 1<<bits - 1
			out, _, rerr := refPad(unpackBits(src, inN, bits), 1, c.shape, c.spec, value)
			if rerr != nil {
				t.Fatalf("%v: reference: %v", c, rerr)
			}
			want = packBits(out, bits)
			dst = bytes.Repeat([]byte{0xEE}, len(want))
			err, pv = rtCatch(func() error { return p.RunPacked(dst, src, bits, value[0]) })
		} else {
			es := len(value)
			var rerr error
			want, _, rerr = refPad(src, es, c.shape, c.spec, value)
			if rerr != nil {
				t.Fatalf("%v: reference: %v", c, rerr)
			}
			dst = bytes.Repeat([]byte{0xEE}, outN*es)
			err, pv = rtCatch(func() error { return p.RunBytes(dst, src, es, value) })
		}
		if pv != nil || err != nil {
			t.Fatalf("%v kind %d: err %v panic %v", c, kind, err, pv)
		}
		if !bytes.Equal(dst, want) {
			t.Fatalf("%v kind %d value %x src %x:\n got %x\nwant %x", c, kind, value, src, dst, want)
		}
		if kind == 2 { // the typed path on the same data
			src32 := make([]uint32, inN)
			for i := range src32 {
				src32[i] = binary.LittleEndian.Uint32(src[4*i:])
			}
			out, sh, err := Pad(src32, c.shape, c.spec, binary.LittleEndian.Uint32(value))
			if err != nil || !slices.Equal(sh, wantSh) || len(out) != outN {
				t.Fatalf("%v: Pad[uint32] = len %d %v %v", c, len(out), sh, err)
			}
			for j := range out {
				if out[j] != binary.LittleEndian.Uint32(want[4*j:]) {
					t.Fatalf("%v: Pad[uint32] differs at %d", c, j)
				}
			}
		}
	})
}
