console.log('relay');
