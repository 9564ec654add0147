package onnx_test

import (
	"encoding/binary"
	"fmt"

	"github.com/tensorpad/pad/onnx"
)

// A Pad-19 node in wrap mode on a float32 tensor stored as raw bytes.
func ExamplePad() {
	data := binary.LittleEndian.AppendUint32(nil, 0x3F800000) // 1.0
	data = binary.LittleEndian.AppendUint32(data, 0x40000000) // 2.0
	node := onnx.Node{Opset: 19, Mode: "wrap", Pads: []int64{1, 2}}
	out, shape, err := onnx.Pad(node, onnx.Float, []int{2}, data, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(shape, len(out), "bytes")
	// Output: [5] 20 bytes
}

// Int4 elements are packed two per byte, the first in the low nibble. The
// constant_value input is one element in one byte.
func ExamplePad_int4() {
	node := onnx.Node{Opset: 21, Pads: []int64{1, 0}} // one element before
	out, shape, _ := onnx.Pad(node, onnx.Int4, []int{3}, []byte{0x21, 0x03}, []byte{0x0F})
	fmt.Printf("%v %x\n", shape, out)
	// Output: [4] 1f32
}

// Opsets 1 to 10 take the pad value from the float attribute.
func ExamplePad_attributeValue() {
	node := onnx.Node{Opset: 2, Pads: []int64{0, 1}, Value: 1.5}
	out, _, _ := onnx.Pad(node, onnx.Float16, []int{1}, []byte{0x00, 0x3C}, nil)
	fmt.Printf("%x\n", out) // 1.0, then 1.5 as float16
	// Output: 003c003e
}

// Axes (opset 18 and later) name the padded axes; they may count from the back.
func ExampleSpec() {
	s, err := onnx.Spec(18, "reflect", 3, []int64{1, 2, 3, 4}, []int64{-1, 0})
	fmt.Println(s.Mode, s.Before, s.After, s.Order, err)
	// Output: reflect [2 0 1] [4 0 3] crop-then-pad <nil>
}

func ExampleSupports() {
	fmt.Println(onnx.Supports(13, onnx.Bool), onnx.Supports(11, onnx.Bool), onnx.Supports(25, onnx.Int2))
	// Output: true false true
}

func ExamplePadStrings() {
	fill := "-"
	out, shape, _ := onnx.PadStrings(onnx.Node{Opset: 13, Pads: []int64{1, 1}}, []int{2}, []string{"a", "b"}, &fill)
	fmt.Println(out, shape)
	// Output: [- a b -] [4]
}
