/* SPDX-License-Identifier: MIT */
/*
 * mcount.S: gcc's and clang's -pg hooks on x86-64 (mcount, after the function's prologue;
 * with -mfentry __fentry__, before it), and the return trampoline through which a traced
 * call's exit comes.
 *
 * The common case goes to mcount-fast.c, whose functions touch no vector register and
 * save the integer registers they use: the hooks save only what carries its arguments
 * and its result (%rax, and %rdi, %rsi at the entry; %rax, %rdi at the exit). Otherwise
 * (mcount-fast.c has done nothing) the general path, mcount.c, runs with every register
 * saved that a C function may clobber and a traced function may still need: the integer
 * ones (the arguments, %rax: the number of vector arguments of a variadic call, %r10: the
 * static chain; %rax, %rdx: the return values) and the vector state as calls_vec_kind
 * says (mcount.c): the whole of %xmm0-7, %ymm0-7 or %zmm0-7 (arguments), %xmm0-1 and up
 * (return values), and x87's. %r11 is the hooks' scratch register, as it is the PLT's.
 */
	.text

/* A hook: calls_entry_fast(slot of the function's return address, the hook's own return
 * address), which keeps all but %rax; when it has done nothing, the general path.
 * \slot: the slot after the three pushes, \slot0 before them. */
.macro HOOK slot, slot0
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	pushq	%rsi
	.cfi_adjust_cfa_offset 8
	leaq	\slot, %rdi
	movq	24(%rsp), %rsi
	call	calls_entry_fast
	testl	%eax, %eax
	popq	%rsi
	.cfi_adjust_cfa_offset -8
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	popq	%rax
	.cfi_adjust_cfa_offset -8
	jz	1f
	ret
1:	leaq	\slot0, %r11
	jmp	calls_entry_general
.endm

/* After `push %rbp; mov %rsp, %rbp`: every integer register a C function may clobber but
 * %r11, then the vector state into a 64-byte aligned area below them; %ebx says how it
 * was kept (0: fxsave, 1: xsave, 3: %xmm0-7). */
.macro SAVE
	pushq	%rax
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%rbx
	.cfi_offset %rbx, -88
	movzbl	calls_vec_kind(%rip), %ebx	/* before the size: mcount.c writes it last */
	andq	$-64, %rsp
	subq	calls_vec_bytes(%rip), %rsp
	cmpl	$2, %ebx
	jne	2f
	movl	$1, %ecx
	xgetbv				/* the state in use */
	testl	$0x44, %eax		/* the upper halves of %ymm0-15 (AVX), %zmm0-15 */
	jnz	3f
	movl	$3, %ebx
	movdqu	%xmm0, 0(%rsp)
	movdqu	%xmm1, 16(%rsp)
	movdqu	%xmm2, 32(%rsp)
	movdqu	%xmm3, 48(%rsp)
	movdqu	%xmm4, 64(%rsp)
	movdqu	%xmm5, 80(%rsp)
	movdqu	%xmm6, 96(%rsp)
	movdqu	%xmm7, 112(%rsp)
	jmp	9f
2:	testl	%ebx, %ebx
	jnz	3f
	fxsave	(%rsp)
	jmp	9f
3:	movl	$1, %ebx
	xorl	%eax, %eax		/* xrstor wants the header's reserved bytes zero */
	movq	%rax, 512(%rsp)
	movq	%rax, 520(%rsp)
	movq	%rax, 528(%rsp)
	movq	%rax, 536(%rsp)
	movq	%rax, 544(%rsp)
	movq	%rax, 552(%rsp)
	movq	%rax, 560(%rsp)
	movq	%rax, 568(%rsp)
	movl	calls_vec_mask(%rip), %eax
	xorl	%edx, %edx
	xsave	(%rsp)
9:
.endm

/* SAVE undone (%r11 untouched). */
.macro RESTORE
	cmpl	$1, %ebx
	je	3f
	jb	2f
	movdqu	0(%rsp), %xmm0
	movdqu	16(%rsp), %xmm1
	movdqu	32(%rsp), %xmm2
	movdqu	48(%rsp), %xmm3
	movdqu	64(%rsp), %xmm4
	movdqu	80(%rsp), %xmm5
	movdqu	96(%rsp), %xmm6
	movdqu	112(%rsp), %xmm7
	jmp	9f
2:	fxrstor	(%rsp)
	jmp	9f
3:	movl	calls_vec_mask(%rip), %eax
	xorl	%edx, %edx
	xrstor	(%rsp)
9:	leaq	-72(%rbp), %rsp
	popq	%rbx
	.cfi_restore %rbx
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rax
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
	HOOK	8(%rbp), 8(%rbp)
	.cfi_endproc
	.size	mcount, .-mcount

/* __fentry__: called first thing: the function's return address is just above ours. */
	.globl	__fentry__
	.type	__fentry__, @function
	.p2align 4
__fentry__:
	.cfi_startproc
	HOOK	32(%rsp), 8(%rsp)
	.cfi_endproc
	.size	__fentry__, .-__fentry__

/* The hooks' general path: calls_mcount_entry(%r11: the slot, the hook's return address),
 * jumped to from the hook: (%rsp) is the hook's return address. */
	.p2align 4
	.type	calls_entry_general, @function
calls_entry_general:
	.cfi_startproc
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	SAVE
	movq	%r11, %rdi
	movq	8(%rbp), %rsi
	call	calls_mcount_entry
	RESTORE
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size	calls_entry_general, .-calls_entry_general

/* A patched function's thunk (mcount.h) calls this first: (%rsp) is the thunk's return
 * address, 8(%rsp) the function's: its slot. Returns where calls_thunk_entry_fast or the
 * general path says: to the thunk, or to the function's body (the call not followed). */
	.globl	calls_thunk_entry
	.hidden	calls_thunk_entry
	.type	calls_thunk_entry, @function
	.p2align 4
calls_thunk_entry:
	.cfi_startproc
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	pushq	%rsi
	.cfi_adjust_cfa_offset 8
	leaq	32(%rsp), %rdi
	movq	24(%rsp), %rsi
	call	calls_thunk_entry_fast
	testq	%rax, %rax
	jz	1f
	movq	%rax, 24(%rsp)
	popq	%rsi
	.cfi_adjust_cfa_offset -8
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	popq	%rax
	.cfi_adjust_cfa_offset -8
	ret
1:	.cfi_adjust_cfa_offset 24
	popq	%rsi
	.cfi_adjust_cfa_offset -8
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	popq	%rax
	.cfi_adjust_cfa_offset -8
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	SAVE
	leaq	16(%rbp), %rdi
	movq	8(%rbp), %rsi
	call	calls_thunk_entry_general
	movq	%rax, 8(%rbp)
	RESTORE
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size	calls_thunk_entry, .-calls_thunk_entry

/* The thunk calls this when the function has returned to it: 8(%rsp) is the slot, where
 * the exit (calls_exit_fast, else the general path) puts the original return address. */
	.globl	calls_thunk_exit
	.hidden	calls_thunk_exit
	.type	calls_thunk_exit, @function
	.p2align 4
calls_thunk_exit:
	.cfi_startproc
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	leaq	24(%rsp), %rdi
	call	calls_exit_fast		/* the original return address, or 0 */
	testq	%rax, %rax
	jz	1f
	movq	%rax, 24(%rsp)
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	popq	%rax
	.cfi_adjust_cfa_offset -8
	ret
1:	.cfi_adjust_cfa_offset 16
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	popq	%rax
	.cfi_adjust_cfa_offset -8
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	SAVE
	leaq	16(%rbp), %rdi
	call	calls_mcount_exit	/* the original return address */
	movq	%rax, 16(%rbp)
	RESTORE
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size	calls_thunk_exit, .-calls_thunk_exit

/* A traced function returns here (its return address was replaced): %rsp is 8 bytes above
 * the slot that held the address. An unwinder looks up the byte before a return address:
 * the nop, which no unwind table covers, so it stops there (a thread's pthread_exit then
 * ends its cleanup at the frame, as at the stack's end); one that starts inside finds no
 * return address either. */
	.p2align 4
	nop
	.globl	calls_return
	.hidden	calls_return
	.type	calls_return, @function
calls_return:
	.cfi_startproc
	.cfi_undefined %rip
	pushq	%rax			/* into the slot */
	pushq	%rdi
	leaq	8(%rsp), %rdi
	call	calls_exit_fast		/* the original return address, or 0 */
	popq	%rdi
	testq	%rax, %rax
	jz	1f
	movq	%rax, %r11
	popq	%rax
	jmp	*%r11
1:	popq	%rax
	/* the general path: calls_mcount_exit(the slot) */
	pushq	%rbp			/* over the slot: %rbp holds its address */
	movq	%rsp, %rbp
	SAVE
	movq	%rbp, %rdi
	call	calls_mcount_exit	/* the original return address */
	movq	%rax, %r11
	RESTORE
	popq	%rbp
	jmp	*%r11
	.cfi_endproc
	.size	calls_return, .-calls_return

	.section .note.GNU-stack,"",@progbits
