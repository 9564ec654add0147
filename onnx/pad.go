package onnx

import (
	"fmt"
	"math"

	"github.com/tensorpad/pad"
	"github.com/tensorpad/pad/internal/frontend"
)

// ErrUnsupportedType reports an element type that the Pad schema in force
// does not list. It wraps pad.ErrInvalidSpec.
var ErrUnsupportedType = fmt.Errorf("%w: element type not supported by this Pad version", pad.ErrInvalidSpec)

// Node holds a Pad node's attributes and its non-data inputs.
type Node struct {
	Opset int    // the model's default-domain opset_import version
	Mode  string // the `mode` attribute; "" means "constant"
	// Pads is the `pads` attribute (opsets 2-10; `paddings` in opset 1) or
	// input (opset 11+): [x1_begin, x2_begin, ..., x1_end, x2_end, ...].
	Pads []int64
	Axes []int64 // the `axes` input (opset 18+, int32 or int64 in the model); nil when absent
	// Value is the float `value` attribute of opsets 1 to 10. Pad converts
	// it to the element type: float16 and bfloat16 round to nearest even
	// (overflow to infinity), the float8 and float4 types round to nearest
	// even and saturate finite overflow as ONNX Cast does by default,
	// integers use Go's conversion, bool is Value != 0. From opset 11 the
	// pad value is the constant_value input and Value must be zero.
	Value float32
}

// Pad runs a Pad node on raw little-endian storage: data holds the elements
// of the given shape as ONNX raw_data does (packed 4-bit and 2-bit types
// first element in the low bits, bool one byte each). It returns the output
// in the same layout, and the output shape.
//
// For opset 11 and later, constantValue is the raw bytes of the scalar
// constant_value input: nil or empty for the zero value, otherwise exactly
// one element (one byte, value in the low bits, for packed types). For
// opsets 1 to 10 constantValue must be nil (or empty) and n.Value is used,
// converted to dt. Packed outputs with an odd number of elements leave the
// unused high bits of the last byte zero.
//
// Errors wrap pad.ErrInvalidSpec (a type the opset does not list, see
// Supports, or STRING, which PadStrings handles; an unknown mode; malformed
// pads or axes; a value in the wrong form for the opset), pad.ErrShapeMismatch
// (data or constantValue of the wrong length), pad.ErrEmptyAxis or
// pad.ErrTooLarge, as the core reports them.
func Pad(n Node, dt DataType, shape []int, data []byte, constantValue []byte) (out []byte, outShape []int, err error) {
	if dt == String {
		return nil, nil, fmt.Errorf("%w: STRING tensors are not raw bytes; use PadStrings", pad.ErrInvalidSpec)
	}
	if !Supports(n.Opset, dt) {
		return nil, nil, unsupported(n.Opset, dt)
	}
	value, err := n.value(dt, constantValue)
	if err != nil {
		return nil, nil, err
	}
	p, err := n.plan(shape)
	if err != nil {
		return nil, nil, err
	}
	if bits := dt.Bits(); bits < 8 {
		var v uint8
		if len(value) > 0 {
			v = value[0] & (1<<bits - 1) // the rest of the byte is padding
		}
		return frontend.RunPacked(p, data, bits, v)
	}
	return frontend.RunBytes(p, data, dt.Size(), value)
}

// PadStrings runs a Pad node on a STRING tensor (opset 13 and later).
// constantValue is the constant_value input; nil means the empty string.
// Errors are as for Pad.
func PadStrings(n Node, shape []int, data []string, constantValue *string) ([]string, []int, error) {
	if !Supports(n.Opset, String) {
		return nil, nil, unsupported(n.Opset, String)
	}
	if err := n.checkNoAttributeValue(); err != nil {
		return nil, nil, err
	}
	s, err := Spec(n.Opset, n.Mode, len(shape), n.Pads, n.Axes)
	if err != nil {
		return nil, nil, err
	}
	var value string
	if constantValue != nil {
		value = *constantValue
	}
	return pad.Pad(data, shape, s, value)
}

func unsupported(opset int, dt DataType) error {
	return fmt.Errorf("%w: %v at opset %d (Pad-%d)", ErrUnsupportedType, dt, opset, schemaVersion(opset))
}

// plan validates the node against the input shape.
func (n Node) plan(shape []int) (*pad.Plan, error) {
	s, err := Spec(n.Opset, n.Mode, len(shape), n.Pads, n.Axes)
	if err != nil {
		return nil, err
	}
	return pad.CachedPlan(shape, s)
}

// value returns the pad element for dt in the form the opset defines.
func (n Node) value(dt DataType, constantValue []byte) ([]byte, error) {
	if schemaVersion(n.Opset) < 11 {
		if len(constantValue) != 0 {
			return nil, fmt.Errorf("%w: opset %d has no constant_value input (the value is the float attribute, Node.Value)", pad.ErrInvalidSpec, n.Opset)
		}
		return attributeValue(dt, n.Value)
	}
	if err := n.checkNoAttributeValue(); err != nil {
		return nil, err
	}
	want := dt.Size()
	if want == 0 {
		want = 1 // packed: one element stored in one byte
	}
	if len(constantValue) != 0 && len(constantValue) != want {
		return nil, fmt.Errorf("%w: constant_value has %d bytes, one %v element is %d", pad.ErrShapeMismatch, len(constantValue), dt, want)
	}
	return constantValue, nil
}

// checkNoAttributeValue rejects Node.Value from opset 11 on, where Pad has
// no value attribute; silently ignoring it would pad with the wrong value.
func (n Node) checkNoAttributeValue() error {
	if schemaVersion(n.Opset) >= 11 && math.Float32bits(n.Value) != 0 {
		return fmt.Errorf("%w: opset %d has no value attribute (Node.Value = %v); pass constant_value instead", pad.ErrInvalidSpec, n.Opset, n.Value)
	}
	return nil
}
