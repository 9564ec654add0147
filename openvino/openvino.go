// Package openvino runs OpenVINO IR Pad operations (opset1 Pad-1 and opset12
// Pad-12) with the pad core.
//
// The pads_begin and pads_end inputs may be negative (Pad-12 defines it; the
// OpenVINO reference tests run the same cases under Pad-1): the input is
// extended first and then cropped (pad.PadThenCrop). pad_mode is one of
// "constant", "edge", "reflect", "symmetric", as the IR spells them. Positive
// reflect pads must be <= dim-1 and positive symmetric pads <= dim, the
// limits the operation specification sets; larger ones are errors
// (ErrPadLimit), although the core itself has no such limit. The pad_value
// input is used in constant mode and ignored otherwise.
//
// Every error wraps one of pad.ErrInvalidSpec, pad.ErrShapeMismatch,
// pad.ErrEmptyAxis or pad.ErrTooLarge, so errors.Is works on them.
package openvino

import (
	"fmt"

	"github.com/tensorpad/pad"
	"github.com/tensorpad/pad/internal/frontend"
)

// ErrPadLimit reports a reflect pad larger than dim-1 or a symmetric pad
// larger than dim. It wraps pad.ErrInvalidSpec.
var ErrPadLimit = fmt.Errorf("%w: pad exceeds the reflect/symmetric limit", pad.ErrInvalidSpec)

var modes = map[string]pad.Mode{
	"constant": pad.Constant, "edge": pad.Edge, "reflect": pad.Reflect, "symmetric": pad.Symmetric,
}

// Spec validates a Pad-1 or Pad-12 operation against the input shape and
// returns its core specification (one entry per axis, pad.PadThenCrop).
//
// Errors: a version other than 1 or 12, an unknown pad_mode, pads whose
// length differs from the rank, a negative output length or dimension wrap
// pad.ErrInvalidSpec; a pad beyond the reflect/symmetric limit wraps
// ErrPadLimit (and so pad.ErrInvalidSpec); a positive pad of an empty axis
// in a non-constant mode wraps pad.ErrEmptyAxis; sizes that overflow wrap
// pad.ErrTooLarge.
func Spec(version int, padMode string, padsBegin, padsEnd []int64, shape []int) (pad.Spec, error) {
	if version != 1 && version != 12 {
		return pad.Spec{}, fmt.Errorf("%w: Pad-%d does not exist (Pad-1 and Pad-12 do)", pad.ErrInvalidSpec, version)
	}
	m, ok := modes[padMode]
	if !ok {
		return pad.Spec{}, fmt.Errorf("%w: unknown pad_mode %q (want constant, edge, reflect or symmetric)", pad.ErrInvalidSpec, padMode)
	}
	if len(padsBegin) != len(shape) || len(padsEnd) != len(shape) {
		return pad.Spec{}, fmt.Errorf("%w: pads_begin has %d entries and pads_end %d, the input rank is %d", pad.ErrInvalidSpec, len(padsBegin), len(padsEnd), len(shape))
	}
	before, err := frontend.Ints("pads_begin", padsBegin)
	if err != nil {
		return pad.Spec{}, err
	}
	after, err := frontend.Ints("pads_end", padsEnd)
	if err != nil {
		return pad.Spec{}, err
	}
	s := pad.Spec{Mode: m, Before: before, After: after, Order: pad.PadThenCrop}
	if _, err := s.OutShape(shape); err != nil {
		return pad.Spec{}, err
	}
	// After the core's checks, so an empty axis reports pad.ErrEmptyAxis
	// rather than a limit of -1.
	if m == pad.Reflect || m == pad.Symmetric {
		for i, d := range shape {
			limit := d
			if m == pad.Reflect {
				limit = d - 1
			}
			if max(before[i], after[i]) > max(limit, 0) { // negative pads crop: no limit
				return pad.Spec{}, fmt.Errorf("%w: axis %d of length %d: %s pads %d and %d, at most %d", ErrPadLimit, i, d, padMode, before[i], after[i], limit)
			}
		}
	}
	return s, nil
}

// Pad runs a Pad-1 or Pad-12 operation on raw storage: data holds the
// elements of the given shape, elemSize bytes each, row-major (the byte
// order inside an element does not matter, elements are copied whole).
// padValue is one element (elemSize bytes), or nil/empty for zero; it is
// used in constant mode and ignored, unchecked, in the others, as OpenVINO
// ignores it. Sub-byte element types (u1, u4, i4) are not supported.
//
// Errors are those of Spec, plus pad.ErrInvalidSpec for elemSize <= 0 and
// pad.ErrShapeMismatch for data or a constant-mode padValue of the wrong
// length.
func Pad(version int, padMode string, padsBegin, padsEnd []int64, elemSize int, shape []int, data []byte, padValue []byte) (out []byte, outShape []int, err error) {
	s, err := Spec(version, padMode, padsBegin, padsEnd, shape)
	if err != nil {
		return nil, nil, err
	}
	return frontend.PadBytes(shape, s, data, elemSize, padValue)
}
