/* SPDX-License-Identifier: MIT */
/* values.c: trace values as Python objects. */
#include "spoorpy.h"

PyObject *spy_text(const char *s, size_t len)
{
	return PyUnicode_DecodeUTF8(s, (Py_ssize_t) len, "surrogateescape");
}

static PyObject *compound(const struct spoor_field *f)
{
	bool is_struct = f->kind == SPOOR_FIELD_STRUCT;
	PyObject *out = is_struct ? PyDict_New() : PyList_New(0);
	struct spoor_field c;

	for (uint32_t i = 0; out && i < f->count && spoor_field_child(f, i, &c); i++) {
		PyObject *v = spy_field_value(&c);
		int rc = !v          ? -1
		         : is_struct ? PyDict_SetItemString(out, c.name ? c.name : "", v)
		                     : PyList_Append(out, v);
		Py_XDECREF(v);
		if (rc)
			Py_CLEAR(out);
	}
	return out;
}

PyObject *spy_field_value(const struct spoor_field *f)
{
	switch (f->kind) {
	case SPOOR_FIELD_SIGNED: return PyLong_FromLongLong(f->v.s);
	case SPOOR_FIELD_UNSIGNED: return PyLong_FromUnsignedLongLong(f->v.u);
	case SPOOR_FIELD_FLOAT: return PyFloat_FromDouble(f->v.f);
	case SPOOR_FIELD_STRING: return spy_text(f->v.str.ptr, f->v.str.len);
	case SPOOR_FIELD_STRUCT:
	case SPOOR_FIELD_ARRAY: {
		if (Py_EnterRecursiveCall(" reading a trace's nested field"))
			return NULL;
		PyObject *out = compound(f);
		Py_LeaveRecursiveCall();
		return out;
	}
	case SPOOR_FIELD_VARIANT: {
		struct spoor_field c;
		if (!spoor_field_child(f, 0, &c))
			Py_RETURN_NONE;
		if (Py_EnterRecursiveCall(" reading a trace's nested field"))
			return NULL;
		PyObject *out = spy_field_value(&c);
		Py_LeaveRecursiveCall();
		return out;
	}
	default: Py_RETURN_NONE;
	}
}
