/* SPDX-License-Identifier: MIT */
/*
 * mcount.S: gcc's and clang's -pg hooks on x86-64 (mcount, after the function's prologue;
 * with -mfentry __fentry__, before it), and the return trampoline through which a traced
 * call's exit comes. Each saves what the C side (mcount.c) may clobber and the function
 * still needs: the argument registers (integer and SSE, and %rax, which holds the number of
 * vector arguments of a variadic call, and %r10, the static chain) at the entry; the return
 * values (%rax, %rdx, %xmm0, %xmm1) at the exit. x87 registers (long double) and the upper
 * halves of %ymm/%zmm registers are not saved: the C side does not touch them (but on its
 * slow path, a thread's first event, where the C library may).
 */
	.text

/* %r11: the slot of the function's return address. Save the argument registers in a frame
 * aligned here (gcc calls mcount after pushing the callee-saved registers, at whatever
 * alignment that leaves), call calls_mcount_entry(slot, the hook's own return address),
 * restore them and return. */
.macro HOOK_BODY
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	andq	$-16, %rsp
	subq	$192, %rsp
	movq	%rdi, 0(%rsp)
	movq	%rsi, 8(%rsp)
	movq	%rdx, 16(%rsp)
	movq	%rcx, 24(%rsp)
	movq	%r8, 32(%rsp)
	movq	%r9, 40(%rsp)
	movq	%rax, 48(%rsp)
	movq	%r10, 56(%rsp)
	movdqu	%xmm0, 64(%rsp)
	movdqu	%xmm1, 80(%rsp)
	movdqu	%xmm2, 96(%rsp)
	movdqu	%xmm3, 112(%rsp)
	movdqu	%xmm4, 128(%rsp)
	movdqu	%xmm5, 144(%rsp)
	movdqu	%xmm6, 160(%rsp)
	movdqu	%xmm7, 176(%rsp)
	movq	%r11, %rdi
	movq	8(%rbp), %rsi
	call	calls_mcount_entry
	movq	0(%rsp), %rdi
	movq	8(%rsp), %rsi
	movq	16(%rsp), %rdx
	movq	24(%rsp), %rcx
	movq	32(%rsp), %r8
	movq	40(%rsp), %r9
	movq	48(%rsp), %rax
	movq	56(%rsp), %r10
	movdqu	64(%rsp), %xmm0
	movdqu	80(%rsp), %xmm1
	movdqu	96(%rsp), %xmm2
	movdqu	112(%rsp), %xmm3
	movdqu	128(%rsp), %xmm4
	movdqu	144(%rsp), %xmm5
	movdqu	160(%rsp), %xmm6
	movdqu	176(%rsp), %xmm7
	movq	%rbp, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	ret
.endm

/* mcount: called after the function's prologue: its return address is at 8(%rbp) (-pg
 * keeps the frame pointer). */
	.globl	mcount
	.type	mcount, @function
	.globl	_mcount
	.type	_mcount, @function
	.p2align 4
mcount:
_mcount:
	.cfi_startproc
	leaq	8(%rbp), %r11
	HOOK_BODY
	.cfi_endproc
	.size	mcount, .-mcount

/* __fentry__: called first thing: the function's return address is just above ours. */
	.globl	__fentry__
	.type	__fentry__, @function
	.globl	calls_fentry		/* the same, for the patched sites (patch.c) */
	.hidden	calls_fentry
	.p2align 4
__fentry__:
calls_fentry:
	.cfi_startproc
	leaq	8(%rsp), %r11
	HOOK_BODY
	.cfi_endproc
	.size	__fentry__, .-__fentry__

/* A traced function returns here (its return address was replaced): %rsp is 8 bytes above
 * the slot that held the address. An unwinder looks up the byte
 * before a return address: the nop, which no unwind table covers, so it stops there (a
 * thread's pthread_exit then ends its cleanup at the frame, as at the stack's end). */
	.p2align 4
	nop
	.globl	calls_return
	.hidden	calls_return
	.type	calls_return, @function
calls_return:
	.cfi_startproc
	pushq	%rbp			/* over the slot: %rbp holds its address */
	movq	%rsp, %rbp
	andq	$-16, %rsp
	subq	$48, %rsp
	movq	%rax, 0(%rsp)
	movq	%rdx, 8(%rsp)
	movdqu	%xmm0, 16(%rsp)
	movdqu	%xmm1, 32(%rsp)
	movq	%rbp, %rdi
	call	calls_mcount_exit	/* the original return address */
	movq	%rax, %r11
	movq	0(%rsp), %rax
	movq	8(%rsp), %rdx
	movdqu	16(%rsp), %xmm0
	movdqu	32(%rsp), %xmm1
	movq	%rbp, %rsp
	popq	%rbp
	jmp	*%r11
	.cfi_endproc
	.size	calls_return, .-calls_return

	.section .note.GNU-stack,"",@progbits
