// Package frontend holds the small pieces the operator front-ends (onnx,
// openvino, ngraph) share: checked int64-to-int conversion of pad lists and
// running a plan on raw storage into a freshly allocated output.
package frontend

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/tensorpad/pad"
)

// maxOutputBytes caps a single output allocation, as the core's Pad does
// (1 GiB where int has 32 bits), so that an absurd but representable shape
// fails instead of exhausting memory.
const maxOutputBytes = min(1<<47, math.MaxInt>>1)

// Ints converts a graph's int64 attribute to ints. A value that does not fit
// in int (only possible where int has 32 bits) wraps pad.ErrTooLarge: a
// silently truncated pad would pad by the wrong amount.
func Ints(name string, v []int64) ([]int, error) {
	if v == nil {
		return nil, nil
	}
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
		if int64(out[i]) != x {
			return nil, fmt.Errorf("%w: %s[%d] = %d does not fit in int", pad.ErrTooLarge, name, i, x)
		}
	}
	return out, nil
}

// elements returns the product of shape; the plan has already checked that
// it fits in int.
func elements(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// byteLen returns ceil(elems*elemBits/8), or an error wrapping pad.ErrTooLarge
// when it overflows or exceeds maxOutputBytes.
func byteLen(what string, elems int, elemBits uint64) (int, error) {
	hi, lo := bits.Mul64(uint64(elems), elemBits)
	if hi != 0 || lo > 8*maxOutputBytes {
		return 0, fmt.Errorf("%w: %s of %d elements of %d bits exceeds %d bytes", pad.ErrTooLarge, what, elems, elemBits, maxOutputBytes)
	}
	return int((lo + 7) / 8), nil
}

// checkedOutput checks src against the plan's input shape, then allocates
// the output. Checking src first means a malformed call never allocates a
// possibly huge output.
func checkedOutput(p *pad.Plan, src []byte, elemBits uint64) ([]byte, error) {
	inLen, err := byteLen("input", elements(p.InShape()), elemBits)
	if err != nil {
		return nil, err
	}
	if len(src) != inLen {
		return nil, fmt.Errorf("%w: data has %d bytes, shape %v needs %d", pad.ErrShapeMismatch, len(src), p.InShape(), inLen)
	}
	outLen, err := byteLen("output", elements(p.OutShape()), elemBits)
	if err != nil {
		return nil, err
	}
	return make([]byte, outLen), nil
}

// PadBytes pads data with the plan of s for shape (pad.CachedPlan) into a
// new slice. The value is used in constant mode only: the other modes
// ignore it, whatever its length.
func PadBytes(shape []int, s pad.Spec, data []byte, elemSize int, value []byte) ([]byte, []int, error) {
	if s.Mode != pad.Constant {
		value = nil
	}
	p, err := pad.CachedPlan(shape, s)
	if err != nil {
		return nil, nil, err
	}
	return RunBytes(p, data, elemSize, value)
}

// RunBytes pads src, elements of elemSize bytes, with p into a new slice.
// value is one element, or empty for the zero value.
func RunBytes(p *pad.Plan, src []byte, elemSize int, value []byte) ([]byte, []int, error) {
	if elemSize <= 0 {
		return nil, nil, fmt.Errorf("%w: element size %d", pad.ErrInvalidSpec, elemSize)
	}
	if len(value) != 0 && len(value) != elemSize {
		return nil, nil, fmt.Errorf("%w: pad value has %d bytes, the element size is %d", pad.ErrShapeMismatch, len(value), elemSize)
	}
	if elemSize > maxOutputBytes {
		return nil, nil, fmt.Errorf("%w: element size %d", pad.ErrTooLarge, elemSize)
	}
	dst, err := checkedOutput(p, src, 8*uint64(elemSize))
	if err != nil {
		return nil, nil, err
	}
	if err := p.RunBytes(dst, src, elemSize, value); err != nil {
		return nil, nil, err
	}
	return dst, p.OutShape(), nil
}

// RunPacked pads src, packed elements of elemBits (2 or 4) bits, with p into
// a new slice; value holds the pad element in its low elemBits bits.
func RunPacked(p *pad.Plan, src []byte, elemBits int, value uint8) ([]byte, []int, error) {
	if elemBits != 2 && elemBits != 4 {
		return nil, nil, fmt.Errorf("%w: packed element of %d bits", pad.ErrInvalidSpec, elemBits)
	}
	dst, err := checkedOutput(p, src, uint64(elemBits))
	if err != nil {
		return nil, nil, err
	}
	if err := p.RunPacked(dst, src, elemBits, value); err != nil {
		return nil, nil, err
	}
	return dst, p.OutShape(), nil
}
