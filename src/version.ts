// Replaced at build time with package.json's version, so --version reads no file.
declare const __CLINADMIN_VERSION__: string | undefined;
export const VERSION: string = typeof __CLINADMIN_VERSION__ === 'string' ? __CLINADMIN_VERSION__ : '0.0.0-dev';
